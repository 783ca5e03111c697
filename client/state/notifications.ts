// The unread notification count behind the header bell, polled every 30 s while signed in
// (SPEC §7, §9). A failed poll is only logged (SPEC §8).
import { signal } from '@preact/signals-react';
import { api } from '../api.ts';

export const UNREAD_POLL_MS = 30_000;

export const unreadCount = signal<number>(0);

export async function refreshUnreadCount(): Promise<void> {
  try {
    const response = await api.notifications.list({ limit: 1, unread_only: true });
    unreadCount.value = Math.max(0, Number(response.unread_count) || 0);
  } catch (error) {
    console.error('Could not load the unread notification count', error);
  }
}

/** Starts polling now and every 30 s; returns the function that stops it. */
export function pollUnreadCount(): () => void {
  void refreshUnreadCount();
  const timer = setInterval(() => void refreshUnreadCount(), UNREAD_POLL_MS);
  return () => {
    clearInterval(timer);
    unreadCount.value = 0;
  };
}

/** The desktop badge text: '9+' above 9 (SPEC §9). */
export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}
