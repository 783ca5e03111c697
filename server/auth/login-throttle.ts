// Login throttling that cannot be turned against a user (DESIGN.md, Edges):
// - per client IP, at most 25 failed logins in any 5 minutes, whatever the accounts;
// - per account, once it has 5 failures, each IP that failed on it waits before its next try:
//   5 s after its last failure there, doubling with each further one up to 15 minutes;
// - an IP that has not failed on the account is never delayed on it, so the owner signing in
//   from their own address gets in at once however hard someone else is guessing.
// A correct password forgets that IP's failures on that account (not its per-IP count: an
// attacker's own account must not buy more guesses). Failures are counted when the attempt
// starts, before the password is checked, so parallel guesses cannot slip past the limits.
// Pure and clocked from outside: the routes give it Date.now, the unit tests a fake clock.
// This one counts in memory, for one process (SQLite); on PostgreSQL several instances share the
// counts in the database (shared-login-throttle.ts), by the same rules.

export interface LoginLimits {
  /** Failed logins allowed from one IP per window. */
  ipFailures: number;
  ipWindowMs: number;
  /** Failures an account takes before the IPs that failed on it are delayed. */
  accountFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** An account's failures are forgotten this long after its last one. */
  forgetAfterMs: number;
  /** Most entries kept per table; the least recently failed go first. */
  maxEntries: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export const LOGIN_LIMITS: LoginLimits = {
  ipFailures: 25,
  ipWindowMs: 5 * MINUTE,
  accountFailures: 5,
  firstDelayMs: 5 * SECOND,
  maxDelayMs: 15 * MINUTE,
  forgetAfterMs: 60 * MINUTE,
  maxEntries: 10_000,
};

export interface LoginGuard {
  /** Milliseconds this IP must wait before trying this account; 0 means go, and counts a failure. */
  begin(ip: string, account: string): number | Promise<number>;
  /** The password was right: the attempt was no failure, and this IP's failures on the account go. */
  succeeded(ip: string, account: string): void | Promise<void>;
}

/** RATE_LIMITS=off. */
export const UNTHROTTLED: LoginGuard = { begin: () => 0, succeeded: () => {} };

/** An IP's failures on one account, or an account's in all. */
export interface Failures {
  count: number;
  /** When the last one was counted (ms since the epoch). */
  last: number;
}

/**
 * How long an IP that failed on an account waits before its next try there: nothing until the
 * account has `accountFailures` failures, then 5 s after the IP's last failure there, doubling
 * with each of its further ones. Shared with the throttle whose counts every instance shares
 * (shared-login-throttle.ts).
 */
export function accountDelay(limits: LoginLimits, total: number, pair: Failures | undefined, now: number): number {
  if (!pair || pair.count === 0 || total < limits.accountFailures) return 0;
  // This IP's failures since the account reached the threshold (all of them for a lone guesser).
  const recent = Math.min(pair.count, total - limits.accountFailures + 1);
  const delay = Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** (recent - 1));
  return Math.max(0, pair.last + delay - now);
}

export class LoginThrottle implements LoginGuard {
  /** Times of each IP's failures still inside the window, oldest first. */
  readonly #ips = new Map<string, number[]>();
  readonly #accounts = new Map<string, Failures>();
  /** Keyed `${ip} ${account}`: an IP has no spaces. */
  readonly #pairs = new Map<string, Failures>();

  readonly #limits: LoginLimits;
  readonly #now: () => number;

  constructor(limits: LoginLimits = LOGIN_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  begin(ip: string, account: string): number {
    const now = this.#now();
    this.#forgetExpired(now);
    const wait = Math.max(this.#ipWait(ip, now), this.#accountWait(ip, account, now));
    if (wait > 0) return wait;
    touch(this.#ips, ip, [...this.#ipFailures(ip, now), now], this.#limits.maxEntries);
    this.#addFailure(this.#accounts, account, now);
    this.#addFailure(this.#pairs, `${ip} ${account}`, now);
    return 0;
  }

  succeeded(ip: string, account: string): void {
    this.#ips.get(ip)?.pop();
    const key = `${ip} ${account}`;
    const pair = this.#pairs.get(key);
    const total = this.#accounts.get(account);
    if (pair && total) total.count -= pair.count;
    if (total && total.count <= 0) this.#accounts.delete(account);
    this.#pairs.delete(key);
  }

  /** How many entries each table holds (memory must stay bounded). */
  sizes(): { ips: number; accounts: number; pairs: number } {
    return { ips: this.#ips.size, accounts: this.#accounts.size, pairs: this.#pairs.size };
  }

  #ipFailures(ip: string, now: number): number[] {
    return this.#ips.get(ip)?.filter((t) => t > now - this.#limits.ipWindowMs) ?? [];
  }

  /** Until the oldest failure that keeps the IP at its limit leaves the window. */
  #ipWait(ip: string, now: number): number {
    const times = this.#ipFailures(ip, now);
    if (times.length < this.#limits.ipFailures) return 0;
    return times[times.length - this.#limits.ipFailures]! + this.#limits.ipWindowMs - now;
  }

  #accountWait(ip: string, account: string, now: number): number {
    return accountDelay(this.#limits, this.#accounts.get(account)?.count ?? 0, this.#pairs.get(`${ip} ${account}`), now);
  }

  #addFailure(table: Map<string, Failures>, key: string, now: number): void {
    const failures = table.get(key) ?? { count: 0, last: now };
    touch(table, key, { count: failures.count + 1, last: now }, this.#limits.maxEntries);
  }

  /** Tables are kept in order of last failure, so what has expired is always at the front. */
  #forgetExpired(now: number): void {
    dropFront(this.#ips, (times) => times.length === 0 || times[times.length - 1]! <= now - this.#limits.ipWindowMs);
    const forgotten = (failures: Failures) => failures.last <= now - this.#limits.forgetAfterMs;
    dropFront(this.#accounts, forgotten);
    dropFront(this.#pairs, forgotten);
  }
}

/** Sets key as the most recent entry, dropping the least recent beyond maxEntries. */
function touch<V>(table: Map<string, V>, key: string, value: V, maxEntries: number): void {
  table.delete(key);
  table.set(key, value);
  if (table.size > maxEntries) table.delete(table.keys().next().value!);
}

function dropFront<V>(table: Map<string, V>, expired: (value: V) => boolean): void {
  for (const [key, value] of table) {
    if (!expired(value)) return;
    table.delete(key);
  }
}
