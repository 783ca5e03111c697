// SQL for finding posts: one by id, the lists, and how many a filter matches.
import { type ExpressionBuilder, type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DB, PostRow } from '../schema.ts';
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
  // An author's posts, walked from the author (postsSource): each one's tag checked by key.
  if (f.authorId !== undefined && f.hashtag !== undefined) {
    conditions.push(eb.exists(eb.selectFrom('post_hashtags').select('post_hashtags.post_id')
      .where('post_hashtags.tag', '=', f.hashtag).whereRef('post_hashtags.post_id', '=', 'posts.id')));
  }
  if (f.authorId !== undefined && f.hashtagContains !== undefined) {
    conditions.push(eb.exists(eb.selectFrom('post_hashtags').select('post_hashtags.post_id')
      .whereRef('post_hashtags.post_id', '=', 'posts.id').where(contains('post_hashtags.tag', f.hashtagContains))));
  }
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
 * set, found through post_hashtags' primary key) instead of walking every post for a match;
 * but an author's posts are fewer than a tag's (thousands on a large site): with an author too,
 * it starts from the author's, and filterConditions checks their tags.
 */
function postsSource(db: DB, f: PostFilter): PostsSource {
  if ((f.hashtag === undefined && f.hashtagContains === undefined) || f.authorId !== undefined) return db.selectFrom('posts');
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

export function selectPosts(source: PostsSource) {
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

/** Every post of an author, archived ones too, newest first (their data export). */
export function listAllAuthorPosts(db: DB, authorId: number): Promise<PostListRow[]> {
  return selectPosts(db.selectFrom('posts')).where('posts.author_id', '=', authorId)
    .orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').execute();
}
