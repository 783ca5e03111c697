// Session state (SPEC §4): no stored token means logged out; a stored token is checked with
// GET /api/users/me at start and removed if that fails. A ban ends the session with a notice
// that /login shows until the next sign-in.
import { computed, signal } from '@preact/signals-react';
import toast from 'react-hot-toast';
import { SESSION_CLOSED_MESSAGE } from '../../shared/accounts.ts';
import { api, clearToken, getToken, setSignedOutHandler, setToken, type SignOutReason } from '../api.ts';
import type { PrivateUser } from '../types.ts';
import type { TwoFactorLoginBody } from '../../server/api-types.ts';

export const currentUser = signal<PrivateUser | null>(null);
/** True while a stored token is being checked: protected routes show a loading indicator. */
export const sessionLoading = signal<boolean>(getToken() !== null);
export const isLoggedIn = computed(() => currentUser.value !== null);
export const isAdmin = computed(() => currentUser.value?.level === 'admin');

export interface BanNotice extends SignOutReason {
  /** True when a session was ended by it; false when a sign-in was refused. */
  signedOut: boolean;
}

/** The ban that ended the session or refused the sign-in: /login shows its reason and end. */
export const banNotice = signal<BanNotice | null>(null);

setSignedOutHandler((reason) => {
  currentUser.value = null;
  if (reason) banNotice.value = { ...reason, signedOut: true };
});

export async function loadCurrentUser(): Promise<PrivateUser> {
  const user = await api.users.me();
  currentUser.value = user;
  return user;
}

/**
 * Called once at start. The user is asked for at once, and applied once `rendered` settles: a
 * page the server rendered is hydrated as a visitor sees it, which a user arriving meanwhile
 * would contradict (main.tsx).
 */
export async function initSession(rendered: Promise<void> = Promise.resolve()): Promise<void> {
  if (!getToken()) return;
  const user = await api.users.me().catch(() => null);
  await rendered;
  if (!user) clearToken();
  currentUser.value = user;
  sessionLoading.value = false;
}

/**
 * Stores the token, then loads the current user (SPEC §4). With two-factor sign-in on there is
 * no token yet: the challenge, which completeTwoFactor turns into one with a code. Throws ApiError on failure.
 */
export async function login(email: string, password: string): Promise<PrivateUser | { challenge: string }> {
  const response = await api.auth.login({ email, password });
  if ('challenge' in response) return { challenge: response.challenge };
  return signedIn(response.access_token);
}

/** The login's second step: the challenge and the app's code, or a recovery code. */
export async function completeTwoFactor(body: TwoFactorLoginBody): Promise<PrivateUser> {
  return signedIn((await api.auth.loginTwoFactor(body)).access_token);
}

async function signedIn(token: string): Promise<PrivateUser> {
  setToken(token);
  banNotice.value = null;
  try {
    return await loadCurrentUser();
  } catch (error) {
    clearToken();
    throw error;
  }
}

/** Ends the session on the server too (its token stops working everywhere), then here. */
export async function logout(): Promise<void> {
  // A session the server already ended, or a server out of reach, still ends here.
  if (getToken()) await api.auth.logout().catch(() => undefined);
  forgetSession();
  toast.success(SESSION_CLOSED_MESSAGE);
}

/** The session is over (signed out everywhere, the account deleted): nothing of it stays here. */
export function forgetSession(): void {
  clearToken();
  currentUser.value = null;
}

/** A new password ended every earlier token: this session goes on with the one it was given. */
export function replaceToken(token: string): void {
  setToken(token);
}

/** After a profile edit (SPEC §4: "Profile update also updates the signed-in user locally"). */
export function updateCurrentUser(user: PrivateUser): void {
  currentUser.value = user;
}
