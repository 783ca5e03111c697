// SQL for the directory pages: hashtag statistics and the authors list.
import type { DB, UserRow } from '../schema.ts';
import { contains } from '../text-search.ts';

export interface HashtagStat {
  hashtag: string;
  count: number;
}

/** Tags in use on active posts, most used first. */
export async function listHashtagStats(db: DB, search: string | undefined, limit: number): Promise<HashtagStat[]> {
  let query = db.selectFrom('hashtags').select(['tag as hashtag', 'posts_count as count'])
    .where('posts_count', '>', 0);
  if (search) query = query.where(contains('tag', search));
  return query.orderBy('posts_count', 'desc').orderBy('tag', 'desc').limit(limit).execute();
}

export type AuthorSort = 'mojo_desc' | 'mojo_asc' | 'posts_desc' | 'posts_asc' | 'rating_desc' | 'rating_asc';
export const AUTHOR_SORTS: readonly AuthorSort[] = ['mojo_desc', 'mojo_asc', 'posts_desc', 'posts_asc', 'rating_desc', 'rating_asc'];

const SORT_COLUMN = {
  mojo: 'mojo',
  posts: 'posts_count',
  rating: 'received_average_rating',
} as const;

/** Authors are users with at least one active article. */
function authorsQuery(db: DB, search: string | undefined) {
  let query = db.selectFrom('users').where('posts_count', '>', 0);
  if (search) {
    query = query.where((eb) => eb.or([contains('username', search), contains('bio', search)]));
  }
  return query;
}

export function listAuthors(db: DB, search: string | undefined, sort: AuthorSort, page: { skip: number; limit: number }): Promise<UserRow[]> {
  const [key, direction] = sort.split('_') as [keyof typeof SORT_COLUMN, 'asc' | 'desc'];
  return authorsQuery(db, search).selectAll()
    .orderBy(SORT_COLUMN[key], direction).orderBy('id', direction)
    .limit(page.limit).offset(page.skip).execute();
}

export async function countAuthors(db: DB, search: string | undefined): Promise<number> {
  const row = await authorsQuery(db, search).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
