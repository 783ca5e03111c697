// The moderation log (DESIGN.md): every admin act that removes content or restricts a user is
// recorded by the feature acting, inside its own transaction; the public reads every act but an
// admin's private message ('notify').
import type { AppContext } from '../context.ts';
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';
import { countPublicEntries, insertModerationEntry, listPublicEntries, type NewModerationEntry } from './moderation.repo.ts';
import { toModerationEntry, type ModerationEntry } from './moderation.view.ts';

export type { ModerationAction, NewModerationEntry } from './moderation.repo.ts';

/** Records an admin's act; call it inside the transaction of the act itself. */
export async function recordModeration(trx: DB, entry: NewModerationEntry): Promise<void> {
  await insertModerationEntry(trx, entry);
}

export interface ModerationLog {
  entries: ModerationEntry[];
  total: number;
}

export async function moderationLog(ctx: AppContext, page: Page): Promise<ModerationLog> {
  const [rows, total] = await Promise.all([listPublicEntries(ctx.db, page), countPublicEntries(ctx.db)]);
  return { entries: rows.map(toModerationEntry), total };
}
