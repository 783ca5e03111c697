// What the signed-in reader muted (DESIGN.md, Mutes; fediverse accounts too), read once the session is known and kept
// here: the Mute / Unmute controls read it, and `mutesRevision` moves whenever it changes what the
// lists show, so every page's reads (hooks/useRead.ts) ask again and come back filtered by the
// server. It moves only for a reader who muted something: for everyone else nothing is read twice,
// and a page the server rendered hydrates untouched.
import { effect, signal } from '@preact/signals-react';
import { useSyncExternalStore } from 'react';
import { api } from '../api.ts';
import { toastApiError, toastSuccess } from '../feedback.ts';
import type { Mutes } from '../types.ts';
import { currentUser } from './session.ts';

export const myMutes = signal<Mutes | null>(null);
export const mutesRevision = signal(0);

const hasAny = (mutes: Mutes | null) =>
  mutes !== null && (mutes.users.length > 0 || mutes.hashtags.length > 0 || (mutes.remote?.length ?? 0) > 0);

/** Reads the list again; the lists follow when it shows anything or showed something before. */
export async function loadMutes(): Promise<void> {
  const before = myMutes.peek();
  const mutes = await api.mutes.list();
  myMutes.value = mutes;
  if (hasAny(mutes) || hasAny(before)) mutesRevision.value += 1;
}

let readFor: number | null = null;
effect(() => {
  const id = currentUser.value?.id ?? null;
  if (id === readFor) return;
  readFor = id;
  if (id === null) {
    const had = hasAny(myMutes.peek());
    myMutes.value = null;
    if (had) mutesRevision.value += 1;
    return;
  }
  loadMutes().catch(() => { myMutes.value = { users: [], hashtags: [], remote: [] }; });
});

/** For hooks outside a signals-aware component: the revision, 0 on the server and until hydrated. */
export function useMutesRevision(): number {
  return useSyncExternalStore((changed) => mutesRevision.subscribe(changed), () => mutesRevision.value, () => 0);
}

export const isMutedUser = (id: number) => myMutes.value?.users.some((u) => u.id === id) ?? false;
export const isMutedHashtag = (tag: string) => myMutes.value?.hashtags.includes(tag) ?? false;

/** 'user@server', whatever its case and leading @: how two handles are compared. */
export const handleKey = (handle: string) => handle.replace(/^@/, '').toLowerCase();
export const isMutedRemote = (handle: string) =>
  myMutes.value?.remote?.some((author) => handleKey(author.handle) === handleKey(handle)) ?? false;

const MUTE_ERROR = 'Error muting';

/** Sends a mute or an unmute, says how it went and reads the list again; true when it worked. */
async function changeMute(send: () => Promise<{ message: string }>): Promise<boolean> {
  try {
    toastSuccess((await send()).message, MUTE_ERROR);
    await loadMutes();
    return true;
  } catch (error) {
    toastApiError(error, MUTE_ERROR);
    return false;
  }
}

/** Mutes or unmutes an author; true when it worked. */
export function setUserMute(userId: number, mute: boolean): Promise<boolean> {
  return changeMute(() => (mute ? api.mutes.muteUser(userId) : api.mutes.unmuteUser(userId)));
}

/** Mutes or unmutes a fediverse account by its handle; true when it worked. */
export function setRemoteMute(handle: string, mute: boolean): Promise<boolean> {
  return changeMute(() => (mute ? api.mutes.muteRemote(handle) : api.mutes.unmuteRemote(handle)));
}

/** Mutes or unmutes a hashtag as typed (the server cleans it); true when it worked. */
export function setHashtagMute(tag: string, mute: boolean): Promise<boolean> {
  return changeMute(() => (mute ? api.mutes.muteHashtag(tag) : api.mutes.unmuteHashtag(tag)));
}
