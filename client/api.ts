// The only module that calls fetch: adds the Bearer token, turns error bodies into ApiError
// (reading only `detail`, SPEC §8) and applies the global 401 rule, and its sibling for bans: a
// 403 carrying the ban sentence ends the session too, saying why. No client timeout (SPEC §7).
import { navigate } from 'wouter/use-browser-location';
import { readBanMessage, type BanFacts } from '../shared/bans.ts';

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

// Paths whose 401 must not sign the user out (SPEC §8): public reads, where a stale token should
// just fail that call, and the sign-in calls themselves, whose 401 means a wrong password.
// An entry ending in '/' (/api/users/) names the same prefix as without it.
const NO_REDIRECT_ON_401 = ['/api/posts', '/api/users/', '/api/auth/login', '/api/auth/register', '/api/health'];

/** True when a 401 from this request path removes the token and goes to /login (SPEC §8). */
export function redirectsOn401(requestPath: string): boolean {
  return !NO_REDIRECT_ON_401.some((entry) => {
    const base = entry.endsWith('/') ? entry.slice(0, -1) : entry;
    return requestPath === base || requestPath.startsWith(`${base}/`) || requestPath.startsWith(`${base}?`);
  });
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
  navigate('/login', { replace: true });
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** '/api/posts' + {skip: 0, hashtag: undefined} → '/api/posts?skip=0' (empty values dropped). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

interface RequestOptions {
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form; // the browser sets the multipart boundary
  }
  const early = method === 'GET' && !token ? firstRead(path) : undefined;
  const response = await (early ?? fetch(path, { method, headers, body, signal: options.signal }));
  const data: unknown = await readBody(response);
  if (response.ok) return data as T;

  const detail = detailOf(data);
  if (response.status === 401 && redirectsOn401(path)) endSession();
  const ban = token ? banOf(response.status, detail) : undefined;
  if (ban) endSession(ban);
  throw new ApiError(response.status, detail);
}

/** The answer first-reads.ts started for this path, once, and only on the page it was started for:
 * after the reader moves on, those answers are stale. */
function firstRead(path: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.beatnikFirstReads;
  if (!early) return undefined;
  if (early.page !== location.pathname + location.search) {
    window.beatnikFirstReads = undefined;
    return undefined;
  }
  const read = early.reads.get(path);
  early.reads.delete(path);
  return read;
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

function detailOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'detail' in data) {
    const { detail } = data as { detail: unknown };
    if (typeof detail === 'string' && detail.trim()) return detail;
  }
  return undefined;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>('GET', withQuery(path, query), { signal }),
  post: <T>(path: string, json?: unknown) => request<T>('POST', path, { json }),
  put: <T>(path: string, json?: unknown) => request<T>('PUT', path, { json }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', withQuery(path, query)),
  /** Multipart (SPEC §7: profile and article forms). */
  postForm: <T>(path: string, form: FormData) => request<T>('POST', path, { form }),
  putForm: <T>(path: string, form: FormData) => request<T>('PUT', path, { form }),
};
