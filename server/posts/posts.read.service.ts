// Reading one article, and the visit it counts: once per reader per post per 30 minutes.
import type { AppContext } from '../context.ts';
import type { DB } from '../db.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import type { PostListRow } from './posts.repo.ts';
import { deleteVisitsBy, findArticle, findLastVisit, recordVisit, starCountsOf } from './posts.read.repo.ts';
import { isListed, postForReader, visibleTo, type Reader } from './posts.service.ts';
import { userVisitor } from './posts.visitors.ts';
import type { Post } from './posts.view.ts';

const VISIT_WINDOW_MS = 30 * 60_000;

/** Forgets a removed account's recent reads; the visits they counted stay counted, as a visitor's. */
export function forgetReaderVisits(trx: DB, userId: number): Promise<void> {
  return deleteVisitsBy(trx, userVisitor(userId));
}

/**
 * Reading an article counts a visit: once per reader per post per 30 minutes, never the
 * author's own reads, and never on archived posts or drafts.
 */
export async function readPost(ctx: AppContext, postId: number, reader: Reader, visitor: string): Promise<Post> {
  // A visit leaves the cached lists alone: their visit counts may lag by the cache's 5 s, while
  // emptying the cache at every read would make busy lists miss it all the time.
  const row = visibleTo(await findArticle(ctx.db, postId, reader?.id), reader);
  const counted = isListed(row) && reader?.id !== row.author_id && await countVisit(ctx.db, row, visitor);
  if (counted) row.visits += 1;
  return { ...postForReader(row, reader), rating_histogram: starCountsOf(row) };
}

/**
 * A visitor's read of an active article whose page the server rendered earlier and serves from
 * its cache (server/pages/): counted as readPost counts a visitor's.
 */
export async function countVisitorRead(ctx: AppContext, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<void> {
  await countVisit(ctx.db, post, visitor);
}

/** A repeat read is found before writing, so it opens no write transaction. */
async function countVisit(db: DB, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<boolean> {
  const now = Date.now();
  const cutoff = new Date(now - VISIT_WINDOW_MS).toISOString();
  const last = await findLastVisit(db, post.id, visitor);
  if (last !== undefined && last >= cutoff) return false;
  return db.transaction().execute(async (trx) => {
    if (!await recordVisit(trx, post.id, visitor, new Date(now).toISOString(), cutoff)) return false;
    // The reader is never named in the ledger (DESIGN.md, Transparency).
    await adjustAuthorStats(trx, post.author_id, { visits: 1 }, { cause: 'visits', at: new Date(now).toISOString(), postId: post.id });
    return true;
  });
}
