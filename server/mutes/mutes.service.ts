// Mutes (DESIGN.md, Accounts, drafts, reports, mutes, moderation log): a signed-in reader mutes
// authors and hashtags. Their posts leave that reader's front page, Recent, rankings and search
// (the lists' queries, server/muted-posts.ts, through `mutedReader` in mutes.readers.ts), their
// comments come marked `author_muted`, and they leave that reader no notices. Muting and unmuting
// are idempotent; bad input changes nothing.
import {
  MUTED_AUTHORS_FULL_MESSAGE, MUTED_HASHTAGS_FULL_MESSAGE, MUTE_HASHTAG_REQUIRED_MESSAGE, MUTE_SELF_MESSAGE, MUTES_MAX,
} from '../../shared/mutes.ts';
import { hashtagProblem, normalizeHashtag } from '../../shared/articles.ts';
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { badRequest, badRequestIf, conflict } from '../errors.ts';
import type { DB, UserRow } from '../schema.ts';
import { findUserOr404 } from '../users/users.service.ts';
import { toPublicUser, type PublicUser } from '../users/users.view.ts';
import {
  countMutes, deleteHashtagMute, deleteMutesOf, deleteUserMute, findAnyMute, findMutedAmong, findUserMute,
  insertHashtagMute, insertUserMute, listMutedHashtags, listMutedUsers,
} from './mutes.repo.ts';

export interface Mutes {
  users: PublicUser[];
  hashtags: string[];
}

export interface MuteResult {
  message: string;
  muted: boolean;
}

/** GET /api/users/me/mutes: authors by name, hashtags in order. */
export async function mutesOf(ctx: AppContext, user: UserRow): Promise<Mutes> {
  const [users, hashtags] = await Promise.all([listMutedUsers(ctx.db, user.id), listMutedHashtags(ctx.db, user.id)]);
  return { users: users.map(toPublicUser), hashtags: hashtags.map((row) => row.hashtag) };
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

/** Before an account is removed: its mutes, and the mutes of it. */
export function removeMutesOf(trx: DB, userId: number): Promise<void> {
  return deleteMutesOf(trx, userId);
}

export interface MutesExport {
  users: Array<{ id: number; username: string; muted_at: string }>;
  hashtags: Array<{ hashtag: string; muted_at: string }>;
}

/** For the account's export: what it muted and when. */
export async function exportedMutes(db: DB, userId: number): Promise<MutesExport> {
  const [users, hashtags] = await Promise.all([listMutedUsers(db, userId), listMutedHashtags(db, userId)]);
  return { users: users.map((row) => ({ id: row.id, username: row.username, muted_at: row.muted_at })), hashtags };
}
