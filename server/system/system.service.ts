// What operators ask of the site itself: is the database answering, and how big is the community.
import type { AppContext } from '../context.ts';
import { nowIso } from '../db.ts';
import { countCommunity, pingDatabase, type CommunityCounts } from './system.repo.ts';

/** Resolves when the database answers a round-trip; rejects when it is unusable. */
export function checkDatabase(ctx: AppContext): Promise<void> {
  return pingDatabase(ctx.db);
}

export function communityCounts(ctx: AppContext): Promise<CommunityCounts> {
  return countCommunity(ctx.db, nowIso());
}
