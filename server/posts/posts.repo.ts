// SQL for posts and their hashtags.
import { type ExpressionBuilder, type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DB, PostRow, PostStatus } from '../schema.ts';
import { preparedQuery } from '../prepared-query.ts';
import { notMutedBy } from '../muted-posts.ts';
import { contains } from '../text-search.ts';

export type PostSort = 'newest' | 'oldest' | 'most_visited' | 'least_visited' | 'best_rated' | 'lowest_rated';
export const POST_SORTS: readonly PostSort[] = ['newest', 'oldest', 'most_visited', 'least_visited', 'best_rated', 'lowest_rated'];

export interface PostFilter {
  authorId?: number;
  /**
   * true: drafts only (an author's list of them); otherwise published articles only. No list
   * mixes the two, and drafts are in no list but their author's.
   */
  draft?: boolean;
  /** true: archived only; false: active only; undefined: both. */
  archived?: boolean;
  /** Exact tag. */
  hashtag?: string;
  /** Tags containing this text (The Pulse). */
  hashtagContains?: string;
  /** Title, content or a tag containing this text. */
  search?: string;
  /** Title or author's username containing this text (admin). */
  titleOrAuthor?: string;
  /** Published at or after this ISO time. */
  since?: string;
  /** Leaves out what this reader muted: authors and hashtags (server/muted-posts.ts). */
  mutedBy?: number;
}

export type PostListRow = PostRow & { author_username: string; author_avatar: string | null; rating_mean: number };

/** m, the site-wide mean rating as of the last ranking refresh: one read by key per statement. */
const ratingMean = sql<number>`coalesce((SELECT rank_refresh.rating_mean FROM rank_refresh WHERE rank_refresh.id = 1), 3)`;

/** The bayesian rating as SQL, exact (posts.view.ts shows it rounded): (5·m + sum) / (5 + n). */
const bayesian = sql`(5 * ${ratingMean} + posts.ratings_sum) / (5.0 + posts.ratings_count)`;


function filterConditions(eb: ExpressionBuilder<Database, 'posts'>, f: PostFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (f.authorId !== undefined) conditions.push(eb('posts.author_id', '=', f.authorId));
  conditions.push(eb('posts.status', '=', f.draft ? 'draft' : 'published'));
  if (f.archived !== undefined) conditions.push(eb('posts.archived', '=', f.archived ? 1 : 0));
  if (f.since !== undefined) conditions.push(eb('posts.created_at', '>=', f.since));
  if (f.search !== undefined) {
    conditions.push(eb.or([
      contains('posts.title', f.search),
      contains('posts.content', f.search),
      // Per listed post, its few tags by post_hashtags_post: never the whole tag table.
      eb.exists(eb.selectFrom('post_hashtags').select('post_hashtags.post_id')
        .whereRef('post_hashtags.post_id', '=', 'posts.id')
        .where(contains('post_hashtags.tag', f.search))),
    ]));
  }
  if (f.titleOrAuthor !== undefined) {
    conditions.push(eb.or([
      contains('posts.title', f.titleOrAuthor),
      eb('posts.author_id', 'in', eb.selectFrom('users').select('id')
        .where(contains('username', f.titleOrAuthor))),
    ]));
  }
  if (f.mutedBy !== undefined) conditions.push(notMutedBy(f.mutedBy, 'posts.id', 'posts.author_id'));
  return eb.and(conditions);
}

type PostsSource = SelectQueryBuilder<Database, 'posts', {}>;

/**
 * Where a posts query starts. With a hashtag filter it starts from that tag's posts (a small
 * set, found through post_hashtags' primary key) instead of walking every post for a match.
 */
function postsSource(db: DB, f: PostFilter): PostsSource {
  if (f.hashtag === undefined && f.hashtagContains === undefined) return db.selectFrom('posts');
  let tagged = db.selectFrom('post_hashtags').select('post_hashtags.post_id').distinct();
  if (f.hashtag !== undefined) tagged = tagged.where('post_hashtags.tag', '=', f.hashtag);
  if (f.hashtagContains !== undefined) {
    // Match against the small hashtags table, then read each matching tag's posts by key.
    tagged = tagged.where('post_hashtags.tag', 'in', db.selectFrom('hashtags').select('hashtags.tag')
      .where(contains('hashtags.tag', f.hashtagContains)));
  }
  // CROSS JOIN makes SQLite keep the tagged set as the outer loop. The added table is not
  // selected from, so the builder is typed as a plain posts query.
  return db.selectFrom(tagged.as('tagged')).crossJoin('posts')
    .whereRef('posts.id', '=', 'tagged.post_id') as unknown as PostsSource;
}

function selectPosts(source: PostsSource) {
  return source
    .innerJoin('users', 'users.id', 'posts.author_id')
    .selectAll('posts')
    .select(['users.username as author_username', 'users.avatar as author_avatar', ratingMean.as('rating_mean')]);
}

const postById = preparedQuery((db, p: { id: number }) =>
  selectPosts(db.selectFrom('posts')).where('posts.id', '=', p.id));

/** Every article read and write starts here. */
export function findPostById(db: DB, id: number): Promise<PostListRow | undefined> {
  return postById.first(db, { id });
}

export type ReaderPostRow = PostListRow & { user_rating: number };

const postForReader = preparedQuery((db, p: { id: number; readerId: number }) =>
  selectPosts(db.selectFrom('posts'))
    .select((eb) => eb.fn.coalesce(
      eb.selectFrom('ratings').select('ratings.rating')
        .whereRef('ratings.post_id', '=', 'posts.id').where('ratings.user_id', '=', p.readerId),
      eb.lit(0),
    ).as('user_rating'))
    .where('posts.id', '=', p.id));

/** The post with the reader's own rating (0 when none), in one query. */
export function findPostForReader(db: DB, id: number, readerId: number): Promise<ReaderPostRow | undefined> {
  return postForReader.first(db, { id, readerId });
}

/** The article as its page reads it: the post (with the reader's rating) and how many ratings of
 * each star it has, [n1 … n5], in the same statement — five counts over its ratings, read by the
 * primary key's leading post_id (no counter to keep in every rating write, no second round trip). */
export type ArticleRow = (PostListRow | ReaderPostRow) & { stars_1: number; stars_2: number; stars_3: number; stars_4: number; stars_5: number };

const STARS = [1, 2, 3, 4, 5] as const;

const withStarCounts = <Q extends SelectQueryBuilder<Database, 'posts' | 'users', object>>(query: Q) =>
  query.select((eb) => STARS.map((n) => eb.selectFrom('ratings').select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('ratings.post_id', '=', 'posts.id').where('ratings.rating', '=', n).as(`stars_${n}`)));

const articleById = preparedQuery((db, p: { id: number }) =>
  withStarCounts(selectPosts(db.selectFrom('posts')).where('posts.id', '=', p.id)));

const articleForReader = preparedQuery((db, p: { id: number; readerId: number }) =>
  withStarCounts(selectPosts(db.selectFrom('posts'))
    .select((eb) => eb.fn.coalesce(
      eb.selectFrom('ratings').select('ratings.rating')
        .whereRef('ratings.post_id', '=', 'posts.id').where('ratings.user_id', '=', p.readerId),
      eb.lit(0),
    ).as('user_rating'))
    .where('posts.id', '=', p.id)));

export async function findArticle(db: DB, id: number, readerId: number | undefined): Promise<ArticleRow | undefined> {
  return (readerId === undefined ? articleById.first(db, { id }) : articleForReader.first(db, { id, readerId })) as Promise<ArticleRow | undefined>;
}

export function starCountsOf(row: ArticleRow): number[] {
  return [Number(row.stars_1), Number(row.stars_2), Number(row.stars_3), Number(row.stars_4), Number(row.stars_5)];
}

const lastVisit = preparedQuery((db, p: { postId: number; visitor: string }) =>
  db.selectFrom('post_visits').select('last_counted_at').where('post_id', '=', p.postId).where('visitor', '=', p.visitor));

/** When this visitor's last visit to the post was counted, if it was. */
export async function findLastVisit(db: DB, postId: number, visitor: string): Promise<string | undefined> {
  return (await lastVisit.first(db, { postId, visitor }))?.last_counted_at;
}

const countedVisit = preparedQuery((db, p: { postId: number; visitor: string; at: string; cutoff: string }) =>
  db.insertInto('post_visits')
    .values({ post_id: p.postId, visitor: p.visitor, last_counted_at: p.at })
    .onConflict((oc) => oc.columns(['post_id', 'visitor'])
      .doUpdateSet({ last_counted_at: (eb) => eb.ref('excluded.last_counted_at') })
      .where('post_visits.last_counted_at', '<', p.cutoff))
    .returning('post_id'));

const addVisit = preparedQuery((db, p: { postId: number }) =>
  db.updateTable('posts').set({ visits: sql`visits + 1` }).where('id', '=', p.postId));

/**
 * Counts a visit unless this visitor's last one was counted at or after `cutoff`; true when it
 * counted. The check and the write are one statement, so two reads at once count once. The
 * author's counters are the caller's.
 */
export async function recordVisit(trx: DB, postId: number, visitor: string, at: string, cutoff: string): Promise<boolean> {
  if (!await countedVisit.first(trx, { postId, visitor, at, cutoff })) return false;
  await addVisit.changed(trx, { postId });
  return true;
}

export function findPostsByIds(db: DB, ids: number[]): Promise<PostListRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectPosts(db.selectFrom('posts')).where('posts.id', 'in', ids).execute();
}

export function listPosts(
  db: DB, filter: PostFilter, sort: PostSort, page: { skip: number; limit: number },
): Promise<PostListRow[]> {
  let query = selectPosts(postsSource(db, filter)).where((eb) => filterConditions(eb, filter));
  switch (sort) {
    case 'newest': query = query.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc'); break;
    case 'oldest': query = query.orderBy('posts.created_at', 'asc').orderBy('posts.id', 'asc'); break;
    case 'most_visited': query = query.orderBy('posts.visits', 'desc').orderBy('posts.id', 'desc'); break;
    case 'least_visited': query = query.orderBy('posts.visits', 'asc').orderBy('posts.id', 'asc'); break;
    case 'best_rated': query = query.orderBy(bayesian, 'desc').orderBy('posts.ratings_count', 'desc').orderBy('posts.id', 'desc'); break;
    case 'lowest_rated': query = query.orderBy(bayesian, 'asc').orderBy('posts.ratings_count', 'desc').orderBy('posts.id', 'asc'); break;
  }
  return query.limit(page.limit).offset(page.skip).execute();
}

export type RankCriteria = 'ranking' | 'visits';

/**
 * The Pulse: active posts by stored score, or by visits. Unfiltered, it walks post_rank_order from
 * the top; with a hashtag it sorts that tag's posts by post_ranks (a post not yet scored ranks last).
 */
export function listRankedPosts(
  db: DB, filter: PostFilter, criteria: RankCriteria, page: { skip: number; limit: number },
): Promise<PostListRow[]> {
  const tagged = filter.hashtag !== undefined || filter.hashtagContains !== undefined;
  if (criteria === 'ranking' && !tagged) {
    const byScore = db.selectFrom('post_rank_order').crossJoin('posts')
      .whereRef('posts.id', '=', 'post_rank_order.post_id') as unknown as PostsSource;
    return selectPosts(byScore).where((eb) => filterConditions(eb, filter))
      .orderBy(sql`post_rank_order.score`, 'desc').orderBy(sql`post_rank_order.post_id`, 'desc')
      .limit(page.limit).offset(page.skip).execute();
  }
  let query = selectPosts(postsSource(db, filter))
    .leftJoin('post_ranks', 'post_ranks.post_id', 'posts.id')
    .where((eb) => filterConditions(eb, filter));
  query = criteria === 'visits'
    ? query.orderBy('posts.visits', 'desc')
    : query.orderBy(sql`coalesce(post_ranks.score, 0)`, 'desc');
  return query.orderBy('posts.id', 'desc').limit(page.limit).offset(page.skip).execute();
}

export async function countPosts(db: DB, filter: PostFilter): Promise<number> {
  const row = await postsSource(db, filter)
    .where((eb) => filterConditions(eb, filter))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewPostValues {
  author_id: number;
  status: PostStatus;
  title: string;
  content: string;
  image: string | null;
  hashtags: string[];
  created_at: string;
}

export async function insertPost(trx: DB, values: NewPostValues): Promise<number> {
  const row = await trx.insertInto('posts')
    .values({ ...values, hashtags: JSON.stringify(values.hashtags), updated_at: values.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Changes the post; with `onlyIf`, only while its status is still that one (a draft edited as the
 * author publishes it elsewhere). False when no row changed.
 */
export async function updatePostRow(
  trx: DB, id: number,
  changes: Partial<{ title: string; content: string; image: string | null; hashtags: string[]; archived: number; updated_at: string }>,
  onlyIf?: { status: PostStatus },
): Promise<boolean> {
  const { hashtags, ...rest } = changes;
  let query = trx.updateTable('posts')
    .set({ ...rest, ...(hashtags ? { hashtags: JSON.stringify(hashtags) } : {}) })
    .where('id', '=', id);
  if (onlyIf) query = query.where('status', '=', onlyIf.status);
  return (await query.executeTakeFirst()).numUpdatedRows > 0n;
}

/**
 * Publishes a draft, dated `at`; false when the post is no draft. One conditional write: of two
 * publications at once, the second waits for the first's row lock and then finds it published.
 */
export async function publishDraftRow(trx: DB, id: number, at: string): Promise<boolean> {
  const result = await trx.updateTable('posts').set({ status: 'published', created_at: at, updated_at: at })
    .where('id', '=', id).where('status', '=', 'draft')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deletePostRow(trx: DB, id: number): Promise<void> {
  await trx.deleteFrom('posts').where('id', '=', id).execute();
}

/** Links a post to its tags (the post_hashtags table answers "posts with tag X"). */
export async function linkHashtags(trx: DB, postId: number, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await trx.insertInto('post_hashtags').values(tags.map((tag) => ({ tag, post_id: postId })))
    .onConflict((oc) => oc.doNothing()).execute();
}

export async function unlinkHashtags(trx: DB, postId: number, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await trx.deleteFrom('post_hashtags').where('post_id', '=', postId).where('tag', 'in', tags).execute();
}

/** hashtags.posts_count counts active posts: ±1 per tag when a post appears or disappears. */
export async function adjustHashtagCounts(trx: DB, tags: string[], delta: 1 | -1): Promise<void> {
  if (tags.length === 0) return;
  if (delta > 0) {
    await trx.insertInto('hashtags').values(tags.map((tag) => ({ tag, posts_count: 1 })))
      .onConflict((oc) => oc.column('tag').doUpdateSet({ posts_count: sql`hashtags.posts_count + 1` }))
      .execute();
  } else {
    await trx.updateTable('hashtags').set({ posts_count: sql`CASE WHEN posts_count > 0 THEN posts_count - 1 ELSE 0 END` })
      .where('tag', 'in', tags).execute();
  }
}

/** Comments on a post written by someone other than its author: they count toward mojo. */
export async function countCommentsByOthers(trx: DB, postId: number, authorId: number): Promise<number> {
  const row = await trx.selectFrom('comments')
    .where('post_id', '=', postId).where('author_id', '!=', authorId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The names of the images of an author's posts. */
export async function listAuthorImages(trx: DB, authorId: number): Promise<string[]> {
  const rows = await trx.selectFrom('posts').select('image')
    .where('author_id', '=', authorId).where('image', 'is not', null).execute();
  return rows.map((row) => row.image!);
}

/** Takes an author's listed posts (published, active: the ones counted) out of their hashtags' counts, in one statement. */
export async function subtractAuthorHashtags(trx: DB, authorId: number): Promise<void> {
  const perTag = trx.selectFrom('post_hashtags').innerJoin('posts', 'posts.id', 'post_hashtags.post_id')
    .select((eb) => ['post_hashtags.tag', eb.fn.countAll<number>().as('n')])
    .where('posts.author_id', '=', authorId).where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .groupBy('post_hashtags.tag').as('gone');
  await trx.updateTable('hashtags').from(perTag)
    .set({ posts_count: sql`CASE WHEN hashtags.posts_count > gone.n THEN hashtags.posts_count - gone.n ELSE 0 END` })
    .whereRef('gone.tag', '=', 'hashtags.tag').execute();
}

/** Deletes an author's posts; their ratings, comments, tags, rank, visits and search entries cascade. */
export async function deleteAuthorPosts(trx: DB, authorId: number): Promise<void> {
  await trx.deleteFrom('posts').where('author_id', '=', authorId).execute();
}

/** Forgets when this reader's visits were last counted (post_visits has no index by reader:
 * its rows last 30 minutes, so the table stays small). */
export async function deleteVisitsBy(trx: DB, visitor: string): Promise<void> {
  await trx.deleteFrom('post_visits').where('visitor', '=', visitor).execute();
}

/** Every post of an author, archived ones too, newest first (their data export). */
export function listAllAuthorPosts(db: DB, authorId: number): Promise<PostListRow[]> {
  return selectPosts(db.selectFrom('posts')).where('posts.author_id', '=', authorId)
    .orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').execute();
}
