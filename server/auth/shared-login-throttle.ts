// The login throttle of login-throttle.ts for several instances: the counts live in a store they
// all share (rate-limiter-flexible's counters, in PostgreSQL; in memory in the unit tests), so a
// guesser spreading attempts over instances meets the same limits and waits, in the same words.
// The rules are the same, with what a store of atomic counters imposes:
// - counts are kept in fixed windows: an IP's 25 failures per 5 minutes are counted from its first
//   failure and start over 5 minutes later (the in-memory throttle slides its window), and an
//   account's and an IP's failures on it are forgotten an hour after the first rather than the last;
// - a failure is counted first, in one atomic statement per count, then taken back if the attempt
//   is refused: parallel guesses, on one instance or several, cannot slip past the limits. Of
//   parallel guesses from one IP once its delay on an account is over, one goes; the others are
//   told to wait as if all before them had failed (the in-memory throttle counts only the first).
import { createHash } from 'node:crypto';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { CounterFactory } from '../rate-limits.ts';
import { accountDelay, LOGIN_LIMITS, type LoginGuard, type LoginLimits } from './login-throttle.ts';

export class SharedLoginThrottle implements LoginGuard {
  readonly #limits: LoginLimits;
  /** Failures per IP, in its window. */
  readonly #ips: RateLimiterAbstract;
  /** Failures per account. */
  readonly #accounts: RateLimiterAbstract;
  /** Failures per IP on an account. */
  readonly #pairs: RateLimiterAbstract;
  /** A marker per IP and account, set at each counted failure: its expiry tells when that was. */
  readonly #lastFailures: RateLimiterAbstract;

  constructor(counter: CounterFactory, limits: LoginLimits = LOGIN_LIMITS) {
    this.#limits = limits;
    const forget = limits.forgetAfterMs / 1000;
    this.#ips = counter('login_ip', limits.ipWindowMs / 1000);
    this.#accounts = counter('login_account', forget);
    this.#pairs = counter('login_pair', forget);
    this.#lastFailures = counter('login_pair_last', forget);
  }

  async begin(ip: string, email: string): Promise<number> {
    const now = Date.now();
    const account = accountKey(email);
    const pair = `${ip} ${account}`;
    const [ipCount, total, pairCount, marker] = await Promise.all([this.#ips.penalty(ip),
      this.#accounts.penalty(account), this.#pairs.penalty(pair), this.#lastFailures.get(pair)]);
    // The counts as this attempt found them. The marker holds this IP's failures on the account
    // as its last counted one left them: any more are being counted beside this attempt, now.
    const before = pairCount.consumedPoints - 1;
    const last = marker && before <= marker.consumedPoints ? this.#lastFailureAt(marker) : now;
    let wait = accountDelay(this.#limits, total.consumedPoints - 1, { count: before, last }, now);
    if (ipCount.consumedPoints > this.#limits.ipFailures) wait = Math.max(wait, ipCount.msBeforeNext);
    if (wait > 0) {
      // A refused attempt is no failure.
      await Promise.all([this.#ips.reward(ip), this.#accounts.reward(account), this.#pairs.reward(pair)]);
      return wait;
    }
    await this.#lastFailures.set(pair, pairCount.consumedPoints, this.#limits.forgetAfterMs / 1000);
    return 0;
  }

  async succeeded(ip: string, email: string): Promise<void> {
    const account = accountKey(email);
    const pair = `${ip} ${account}`;
    const [ipCount, total, pairCount] = await Promise.all([this.#ips.get(ip), this.#accounts.get(account), this.#pairs.get(pair)]);
    const failures = Math.min(pairCount?.consumedPoints ?? 0, total?.consumedPoints ?? 0);
    // Taken back only from a count still in its window: a reward on an expired one would start a
    // new window below zero, and buy guesses.
    await Promise.all([
      (ipCount?.consumedPoints ?? 0) > 0 ? this.#ips.reward(ip) : undefined,
      failures > 0 ? this.#accounts.reward(account, failures) : undefined,
      this.#pairs.delete(pair),
      this.#lastFailures.delete(pair),
    ]);
  }

  /** The marker is set at each counted failure to expire `forgetAfterMs` later. */
  #lastFailureAt(marker: RateLimiterRes): number {
    return Date.now() + marker.msBeforeNext - this.#limits.forgetAfterMs;
  }
}

/** Accounts by a hash of the address: no addresses in the shared table (nor in its backups). */
function accountKey(email: string): string {
  return createHash('sha256').update(email).digest('base64url').slice(0, 22);
}
