// Mutes (DESIGN.md, Accounts, drafts, reports, mutes, moderation log): a signed-in reader mutes
// authors and hashtags. Their posts leave that reader's front page, Recent, rankings and search
// (the lists' queries, server/muted-posts.ts, through `mutedReader` in mutes.readers.ts), their
// comments come marked `author_muted`, and they leave that reader no notices. Muting and unmuting
// are idempotent; bad input changes nothing.
import {
  MUTED_AUTHORS_FULL_MESSAGE, MUTED_HASHTAGS_FULL_MESSAGE, MUTE_HASHTAG_REQUIRED_MESSAGE, MUTE_SELF_MESSAGE, MUTES_MAX,
  REMOTE_AUTHOR_NOT_FOUND, REMOTE_HANDLE_MESSAGE,
} from '../../shared/mutes.ts';
import { hashtagProblem, normalizeHashtag } from '../../shared/articles.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, badRequestIf, conflict, notFound } from '../errors.ts';
import type { DB, UserRow } from '../schema.ts';
import { findUserOr404 } from '../users/users.service.ts';
import { toPublicUser, type PublicUser } from '../users/users.view.ts';
import {
  countMutes, deleteHashtagMute, deleteMutesOf, deleteRemoteMute, deleteUserMute, findAnyMute, findMutedAmong,
  findMutedRemoteAmong, findRemoteActorByHandle, findUserMute, insertHashtagMute, insertRemoteMute, insertUserMute,
  listMutedHashtags, listMutedRemoteActors, listMutedUsers, type RemoteActorRow,
} from './mutes.repo.ts';

/** A remote author as a list of mutes shows them (the shape of a comment's `remote_author`). */
export interface MutedRemoteAuthor {
  handle: string;
  name: string;
  url: string;
  avatar: string | null;
}

export interface Mutes {
  users: PublicUser[];
  hashtags: string[];
  /** Authors from the fediverse, by handle. */
  remote: MutedRemoteAuthor[];
}

function toMutedRemote(row: RemoteActorRow): MutedRemoteAuthor {
  return { handle: `@${row.handle}`, name: row.name, url: row.url ?? row.uri, avatar: row.avatar_url };
}

export interface MuteResult {
  message: string;
  muted: boolean;
}

/** GET /api/users/me/mutes: authors by name, hashtags in order. */
export async function mutesOf(ctx: AppContext, user: UserRow): Promise<Mutes> {
  const [users, hashtags, remote] = await Promise.all([
    listMutedUsers(ctx.db, user.id), listMutedHashtags(ctx.db, user.id), listMutedRemoteActors(ctx.db, user.id),
  ]);
  return { users: users.map(toPublicUser), hashtags: hashtags.map((row) => row.hashtag), remote: remote.map(toMutedRemote) };
}

export async function changeUserMute(ctx: AppContext, user: UserRow, mutedId: number, mute: boolean): Promise<MuteResult> {
  if (mutedId === user.id) throw badRequest(MUTE_SELF_MESSAGE);
  return ctx.db.transaction().execute(async (trx) => {
    const muted = await findUserOr404(trx, mutedId);
    const name = muted.username;
    if (!mute) {
      return { message: await deleteUserMute(trx, user.id, mutedId) ? `Unmuted ${name}` : `You have not muted ${name}`, muted: false };
    }
    if (await findUserMute(trx, user.id, mutedId)) return { message: `You have already muted ${name}`, muted: true };
    if (await countMutes(trx, 'user_mutes', user.id) >= MUTES_MAX) throw conflict(MUTED_AUTHORS_FULL_MESSAGE);
    await insertUserMute(trx, user.id, mutedId, nowIso());
    return { message: `Muted ${name}`, muted: true };
  });
}

/** `user@server` (a leading @ allowed), its server lower-cased; or the 400 saying what one looks like. */
function remoteHandle(raw: string): { user: string; domain: string } {
  const match = /^@?([^@\s/]+)@([^@\s/]+)$/.exec(raw.trim());
  if (!match) throw badRequest(REMOTE_HANDLE_MESSAGE);
  return { user: match[1]!, domain: match[2]!.toLowerCase() };
}

/** A remote author met here (a comment of theirs), muted or unmuted; idempotent. */
export async function changeRemoteMute(ctx: AppContext, user: UserRow, raw: string, mute: boolean): Promise<MuteResult> {
  const handle = remoteHandle(raw);
  return ctx.db.transaction().execute(async (trx) => {
    const actor = await findRemoteActorByHandle(trx, handle);
    if (!actor) throw notFound(REMOTE_AUTHOR_NOT_FOUND);
    const name = `@${actor.handle}`;
    if (!mute) {
      return { message: await deleteRemoteMute(trx, user.id, actor.id) ? `Unmuted ${name}` : `You have not muted ${name}`, muted: false };
    }
    if ((await findMutedRemoteAmong(trx, user.id, [actor.id])).length > 0) return { message: `You have already muted ${name}`, muted: true };
    if (await countMutes(trx, 'user_remote_mutes', user.id) >= MUTES_MAX) throw conflict(MUTED_AUTHORS_FULL_MESSAGE);
    await insertRemoteMute(trx, user.id, actor.id, nowIso());
    return { message: `Muted ${name}`, muted: true };
  });
}

/** A tag as posts store it ('#Jazz' is jazz), or the 400 saying why it cannot be one. */
function mutedTag(raw: string): string {
  const tag = normalizeHashtag(raw);
  if (!tag) throw badRequest(MUTE_HASHTAG_REQUIRED_MESSAGE);
  badRequestIf(hashtagProblem(tag));
  return tag;
}

export async function changeHashtagMute(ctx: AppContext, user: UserRow, raw: string, mute: boolean): Promise<MuteResult & { hashtag: string }> {
  const tag = mutedTag(raw);
  return ctx.db.transaction().execute(async (trx) => {
    if (!mute) {
      const removed = await deleteHashtagMute(trx, user.id, tag);
      return { message: removed ? `Unmuted #${tag}` : `You have not muted #${tag}`, muted: false, hashtag: tag };
    }
    const count = await countMutes(trx, 'hashtag_mutes', user.id);
    if (count >= MUTES_MAX && !(await listMutedHashtags(trx, user.id)).some((row) => row.hashtag === tag)) {
      throw conflict(MUTED_HASHTAGS_FULL_MESSAGE);
    }
    const added = await insertHashtagMute(trx, user.id, tag, nowIso());
    return { message: added ? `Muted #${tag}` : `You have already muted #${tag}`, muted: true, hashtag: tag };
  });
}

/** Whether the user muted anyone or anything (their lists are then their own, never the cache's). */
export function hasMutes(db: DB, userId: number): Promise<boolean> {
  return findAnyMute(db, userId);
}

/** Of these authors, the ones the reader muted (their comments come collapsed). */
export async function mutedAuthorsAmong(db: DB, reader: UserRow, authorIds: readonly number[]): Promise<Set<number>> {
  return new Set(await findMutedAmong(db, reader.id, [...new Set(authorIds)].filter((id) => id !== reader.id)));
}

/** Of these remote authors, the ones the reader muted (their comments come collapsed). */
export async function mutedRemoteAuthorsAmong(db: DB, reader: UserRow, actorIds: readonly number[]): Promise<Set<number>> {
  return new Set(await findMutedRemoteAmong(db, reader.id, [...new Set(actorIds)]));
}

/** Whether `userId` muted this remote author: then a reply of theirs leaves them no notice. */
export async function remoteAuthorMutedBy(db: DB, userId: number, actorId: number): Promise<boolean> {
  return (await findMutedRemoteAmong(db, userId, [actorId])).length > 0;
}

/** Before an account is removed: its mutes, and the mutes of it. */
export function removeMutesOf(trx: DB, userId: number): Promise<void> {
  return deleteMutesOf(trx, userId);
}

export interface MutesExport {
  users: Array<{ id: number; username: string; muted_at: string }>;
  hashtags: Array<{ hashtag: string; muted_at: string }>;
  remote: Array<{ handle: string; muted_at: string }>;
}

/** For the account's export: what it muted and when. */
export async function exportedMutes(db: DB, userId: number): Promise<MutesExport> {
  const [users, hashtags, remote] = await Promise.all([listMutedUsers(db, userId), listMutedHashtags(db, userId), listMutedRemoteActors(db, userId)]);
  return {
    users: users.map((row) => ({ id: row.id, username: row.username, muted_at: row.muted_at })), hashtags,
    remote: remote.map((row) => ({ handle: `@${row.handle}`, muted_at: row.muted_at })),
  };
}
