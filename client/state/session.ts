// Session state (SPEC §4): no stored token means logged out; a stored token is checked with
// GET /api/users/me at start and removed if that fails.
import { computed, signal } from '@preact/signals-react';
import toast from 'react-hot-toast';
import { api, clearToken, getToken, setSignedOutHandler, setToken } from '../api.ts';
import type { PrivateUser } from '../types.ts';

export const currentUser = signal<PrivateUser | null>(null);
/** True while a stored token is being checked: protected routes show a loading indicator. */
export const sessionLoading = signal<boolean>(getToken() !== null);
export const isLoggedIn = computed(() => currentUser.value !== null);
export const isAdmin = computed(() => currentUser.value?.level === 'admin');

interface LoginResponse {
  access_token: string;
  token_type: string;
  user: PrivateUser;
}

setSignedOutHandler(() => {
  currentUser.value = null;
});

export async function loadCurrentUser(): Promise<PrivateUser> {
  const user = await api.get<PrivateUser>('/api/users/me');
  currentUser.value = user;
  return user;
}

/** Called once at start. */
export async function initSession(): Promise<void> {
  if (!getToken()) return;
  sessionLoading.value = true;
  try {
    await loadCurrentUser();
  } catch {
    clearToken();
    currentUser.value = null;
  } finally {
    sessionLoading.value = false;
  }
}

/** Stores the token, then loads the current user (SPEC §4). Throws ApiError on failure. */
export async function login(email: string, password: string): Promise<PrivateUser> {
  const response = await api.post<LoginResponse>('/api/auth/login', { email, password });
  setToken(response.access_token);
  try {
    return await loadCurrentUser();
  } catch (error) {
    clearToken();
    throw error;
  }
}

export function logout(): void {
  clearToken();
  currentUser.value = null;
  toast.success('Session closed successfully');
}

/** After a profile edit (SPEC §4: "Profile update also updates the signed-in user locally"). */
export function updateCurrentUser(user: PrivateUser): void {
  currentUser.value = user;
}
