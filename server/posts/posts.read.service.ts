// Reading one article, and the visit it counts: once per reader per post per 30 minutes.
import type { Entry } from '../cache/read-cache.ts';
import type { AppContext } from '../context.ts';
import type { DB } from '../schema.ts';
import { adjustAuthorStats } from '../users/author-stats.service.ts';
import { mojoLedgerAddress } from '../users/mojo-ledger.service.ts';
import type { PostListRow } from './posts.repo.ts';
import {
  deleteVisitsBy, findArticle, findLastVisit, findReaderRating, recordVisit, starCountsOf,
} from './posts.read.repo.ts';
import { isListed, postForReader, visibleTo, type Reader } from './posts.service.ts';
import { recentVisitsOf } from './posts.recent-visits.ts';
import { userVisitor } from './posts.visitors.ts';
import { visitWriter } from './posts.visit-writes.ts';
import type { Post } from './posts.view.ts';

const VISIT_WINDOW_MS = 30 * 60_000;

/** Forgets a removed account's recent reads; the visits they counted stay counted, as a visitor's. */
export function forgetReaderVisits(ctx: AppContext, trx: DB, userId: number): Promise<void> {
  recentVisitsOf(ctx.db).forgetVisitor(userVisitor(userId));
  return deleteVisitsBy(trx, userVisitor(userId));
}

/** An article as every reader sees it, kept in the read cache: the reader's own rating is added per read. */
interface CachedArticle {
  post: Post;
  authorId: number;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The article's address in the read cache: emptied by every write, and forgotten by its counted visits. */
const articleAddress = (postId: number) => `article ${postId}`;

/** An article read for a reader, and `keep`, which stores its shared part in the read cache. */
interface ReadersArticle {
  post: Post;
  authorId: number;
  listed: boolean;
  keep: () => void;
}

/**
 * An active article as readers see it, with its histogram, from the read cache when it is there
 * (kept 5 s at most, like the lists; a write through the API or a counted visit of it empties it,
 * so its counts are the stored ones), with the signed-in reader's own rating read beside it.
 * Drafts and archived articles, seen by their author and admins only, are always read afresh.
 * A read from the database is kept by `keep`, which the caller skips when the read counted a
 * visit: that would forget it at once.
 */
async function findReadersArticle(ctx: AppContext, postId: number, reader: Reader): Promise<ReadersArticle> {
  const key = articleAddress(postId);
  const cached = ctx.readCache?.lookup(key, 'articles')?.memo as CachedArticle | undefined;
  const keepNothing = () => {};
  if (cached) {
    if (!reader) return { post: { ...cached.post }, authorId: cached.authorId, listed: true, keep: keepNothing };
    // In the order an uncached read gives: the reader's rating before the histogram.
    const { rating_histogram: histogram, ...shared } = cached.post;
    const post = { ...shared, user_rating: await findReaderRating(ctx.db, postId, reader.id), rating_histogram: histogram };
    return { post, authorId: cached.authorId, listed: true, keep: keepNothing };
  }
  const mark = ctx.readCache?.mark() ?? Number.NaN;
  const row = visibleTo(await findArticle(ctx.db, postId, reader?.id), reader);
  const post = { ...postForReader(row, reader), rating_histogram: starCountsOf(row) };
  const listed = isListed(row);
  const keep = () => {
    if (!listed || !ctx.readCache) return;
    const { user_rating: _own, ...shared } = post;
    ctx.readCache.store(key, mark, Buffer.from(JSON.stringify(shared)), JSON_TYPE, { post: shared, authorId: row.author_id } satisfies CachedArticle);
  };
  return { post, authorId: row.author_id, listed, keep };
}

/**
 * The cached entry whose body is this anonymous reader's answer, if it is kept: sent as it is,
 * with its ETag and compressed copies made once. None when the read counted a visit (which
 * kept nothing, or forgot what was kept) or was a signed-in reader's.
 */
export function keptArticle(ctx: AppContext, post: Post): Entry | undefined {
  if ('user_rating' in post) return undefined;
  const entry = ctx.readCache?.lookup(articleAddress(post.id));
  return (entry?.memo as CachedArticle | undefined)?.post.visits === post.visits ? entry : undefined;
}

/**
 * Reading an article counts a visit: once per reader per post per 30 minutes, never the
 * author's own reads, and never on archived posts or drafts.
 */
export async function readPost(ctx: AppContext, postId: number, reader: Reader, visitor: string): Promise<Post> {
  // A visit leaves the cached lists alone: their visit counts may lag by the cache's 5 s, while
  // emptying the cache at every read would make busy lists miss it all the time.
  const { post, authorId, listed, keep } = await findReadersArticle(ctx, postId, reader);
  const counted = listed && reader?.id !== authorId && await countVisit(ctx, { id: postId, author_id: authorId }, visitor);
  if (counted) post.visits += 1;
  else keep();
  return post;
}

/**
 * A visitor's read of an active article whose page the server rendered earlier and serves from
 * its cache (server/pages/): counted as readPost counts a visitor's.
 */
export async function countVisitorRead(ctx: AppContext, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<void> {
  await countVisit(ctx, post, visitor);
}

interface Visit {
  postId: number;
  authorId: number;
  visitor: string;
  at: string;
  /** Counted unless this visitor's last visit was counted at or after this. */
  cutoff: string;
}

/** A visit and the author's counters it moves, in the caller's transaction; true when it counted. */
async function writeVisit(trx: DB, visit: Visit): Promise<boolean> {
  if (!await recordVisit(trx, visit.postId, visit.visitor, visit.at, visit.cutoff)) return false;
  // The reader is never named in the ledger (DESIGN.md, Transparency).
  await adjustAuthorStats(trx, visit.authorId, { visits: 1 }, { cause: 'visits', at: visit.at, postId: visit.postId });
  return true;
}

/** One writer per database: tests run many apps in one process, each with its own. */
const visitWriters = new WeakMap<DB, (visit: Visit) => Promise<boolean>>();

function visitWriterOf(db: DB): (visit: Visit) => Promise<boolean> {
  let writer = visitWriters.get(db);
  if (!writer) {
    writer = visitWriter(db, writeVisit);
    visitWriters.set(db, writer);
  }
  return writer;
}

/** The databases whose last visit could not be recorded: the failure is logged once, not per reader. */
const visitsFailing = new WeakSet<DB>();

/**
 * A re-read this process counted lately is known from memory (posts.recent-visits.ts) and costs
 * no statement; any other read goes straight to the write, whose single statement checks the
 * window. A visit that cannot be written (a full disk, a database gone read-only) is lost, not
 * the reader's article: logged when it starts happening and when visits count again.
 */
async function countVisit(ctx: AppContext, post: Pick<PostListRow, 'id' | 'author_id'>, visitor: string): Promise<boolean> {
  const { db } = ctx;
  const recent = recentVisitsOf(db);
  const now = Date.now();
  if (recent.countedSince(post.id, visitor, now - VISIT_WINDOW_MS)) return false;
  let counted: boolean;
  try {
    counted = await visitWriterOf(db)({
      postId: post.id, authorId: post.author_id, visitor, at: new Date(now).toISOString(),
      cutoff: new Date(now - VISIT_WINDOW_MS).toISOString(),
    });
  } catch (err) {
    if (!visitsFailing.has(db)) ctx.log.error({ err }, 'visits cannot be counted: the database cannot be written');
    visitsFailing.add(db);
    return false;
  }
  if (visitsFailing.delete(db)) ctx.log.info('visits are counted again');
  if (counted) {
    recent.remember(post.id, visitor, now);
    // Not a write through the API, which would empty the whole cache: it forgets what it changed.
    ctx.readCache?.forget([articleAddress(post.id), mojoLedgerAddress(post.author_id)]);
  } else {
    // Counted by another instance, or before this process started: learn when, for the next read.
    const last = await findLastVisit(db, post.id, visitor);
    if (last !== undefined) recent.remember(post.id, visitor, Date.parse(last));
  }
  return counted;
}
