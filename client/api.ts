// The only module that calls fetch: sends the calls client/endpoints.ts defines, as `api`
// (api.posts.rate(id, 4) → Promise<Post>), adding the Bearer token, turning error bodies into
// ApiError (reading only `detail`, SPEC §8) and applying the global 401 rule, and its sibling for
// bans: a 403 carrying the ban sentence ends the session too, saying why. No client timeout (SPEC §7).
import { navigate } from 'wouter/use-browser-location';
import { readBanMessage, type BanFacts } from '../shared/bans.ts';
import { endpoints, redirectsOn401, type Call } from './endpoints.ts';

export const TOKEN_KEY = 'beatnik.token';

/** A failed API call: the HTTP status and the server's `detail`, when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;

  constructor(status: number, detail: string | undefined) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: behave as signed out
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored anyway
  }
}

/** Why the server ended a session, when it said: a ban, its sentence and what it says. */
export interface SignOutReason {
  detail: string;
  ban: BanFacts;
}

/**
 * The ban behind a refused request of a signed-in user (DESIGN.md, Bans: every request with the
 * token of a banned user gets 403 with the reason and end date); undefined for any other answer.
 */
export function banOf(status: number, detail: string | undefined): SignOutReason | undefined {
  const ban = status === 403 && detail ? readBanMessage(detail) : undefined;
  return ban && detail ? { detail, ban } : undefined;
}

let onSignedOut: ((reason?: SignOutReason) => void) | undefined;

/** The session registers here to forget the user when a 401 or a ban ends the session. */
export function setSignedOutHandler(handler: (reason?: SignOutReason) => void): void {
  onSignedOut = handler;
}

function endSession(reason?: SignOutReason): void {
  clearToken();
  onSignedOut?.(reason);
  navigate(loginReturningHere(), { replace: true });
}

/**
 * A send refused with a 401 where the global rule does not apply (publishing, commenting: SPEC §7's
 * exceptions): the session is over all the same. The writer signs in and comes back to the page,
 * where the editor offers what they wrote (DESIGN.md, Writing).
 */
export function endExpiredSession(): void {
  endSession();
}

/** /login, with the page to come back to once signed in (LoginPage reads `next`). */
function loginReturningHere(): string {
  const here = `${location.pathname}${location.search}`;
  return here === '/' || location.pathname === '/login' ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

/** Where to go once signed in: `next` when it is a page of this site, else Home. */
export function returnAddress(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/(?![/\\])/.test(next) ? next : '/';
}

/** Sends one call of endpoints.ts and resolves to its answer (api.<group>.<name>(…) does this). */
export async function request<R>(call: Call<R>): Promise<R> {
  const { method, url, json, form, signal } = call;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) {
    body = form; // the browser sets the multipart boundary
  }
  const response = await fetch(url, { method, headers, body, signal });
  const data: unknown = await readBody(response);
  if (response.ok) return data as R;

  const detail = detailOf(data);
  if (response.status === 401 && redirectsOn401(url)) endSession();
  const ban = token ? banOf(response.status, detail) : undefined;
  if (ban) endSession(ban);
  throw new ApiError(response.status, detail);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `detail` of an error body (SPEC §8), when it has one. */
export function detailOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'detail' in data) {
    const { detail } = data as { detail: unknown };
    if (typeof detail === 'string' && detail.trim()) return detail;
  }
  return undefined;
}

/** Each definition of endpoints.ts, as a function that sends it and resolves to its answer. */
type Senders<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Call<infer R> ? (...args: A) => Promise<R> : Senders<T[K]>;
};

function senders<T extends object>(definitions: T): Senders<T> {
  return Object.fromEntries(Object.entries(definitions).map(([name, entry]) => [name,
    typeof entry === 'function' ? (...args: unknown[]) => request(entry(...args) as Call<unknown>) : senders(entry as object)],
  )) as Senders<T>;
}

/** The API, typed: api.posts.list({ limit: 10 }), api.ratings.rate(postId, 4), … */
export const api = senders(endpoints);
