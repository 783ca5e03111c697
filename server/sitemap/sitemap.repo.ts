// SQL of the sitemap: active articles and the authors who have one, each with its last change,
// read in chunks that each resume after the previous one's last row. Authors are users whose
// posts_count (active articles, kept in the same transaction as every change) is above 0, as in
// GET /api/authors.
import type { DB } from '../schema.ts';

export interface SitemapCounts {
  authors: number;
  posts: number;
}

export async function countSitemapEntries(db: DB): Promise<SitemapCounts> {
  const [authors, posts] = await Promise.all([
    db.selectFrom('users').where('posts_count', '>', 0)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('posts').where('status', '=', 'published').where('archived', '=', 0)
      .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { authors: Number(authors.n), posts: Number(posts.n) };
}

/** Where a chunk starts: after skipping rows from the first, or right after a row already read. */
export type ChunkStart<Row> = { skip: number } | { after: Row };

export interface AuthorEntry {
  id: number;
  posts_count: number;
  username: string;
  /** The publication of their newest active article. */
  lastmod: string | null;
}

/**
 * Authors, most articles first: the order of users_posts_count, so no chunk sorts them. Their
 * lastmod is read from posts_author_listed alone (the newest created_at, one index step each);
 * the newest edit would read every article's row.
 */
export function listAuthorEntries(db: DB, start: ChunkStart<AuthorEntry>, limit: number): Promise<AuthorEntry[]> {
  let query = db.selectFrom('users').where('users.posts_count', '>', 0)
    .select((eb) => [
      'users.id', 'users.posts_count', 'users.username',
      eb.selectFrom('posts').whereRef('posts.author_id', '=', 'users.id')
        .where('posts.status', '=', 'published').where('posts.archived', '=', 0)
        .select((sub) => sub.fn.max('posts.created_at').as('m')).as('lastmod'),
    ]);
  if ('after' in start) {
    const { posts_count, id } = start.after;
    query = query.where((eb) => eb(eb.refTuple('users.posts_count', 'users.id'), '<', eb.tuple(posts_count, id)));
  }
  return query.orderBy('users.posts_count', 'desc').orderBy('users.id', 'desc')
    .limit(limit).offset('skip' in start ? start.skip : 0).execute();
}

export interface PostEntry {
  id: number;
  created_at: string;
  updated_at: string;
}

/** Active articles, oldest first: the order of posts_listed_created. */
export function listPostEntries(db: DB, start: ChunkStart<PostEntry>, limit: number): Promise<PostEntry[]> {
  let query = db.selectFrom('posts').where('posts.status', '=', 'published').where('posts.archived', '=', 0)
    .select(['posts.id', 'posts.created_at', 'posts.updated_at']);
  if ('after' in start) {
    const { created_at, id } = start.after;
    query = query.where((eb) => eb(eb.refTuple('posts.created_at', 'posts.id'), '>', eb.tuple(created_at, id)));
  }
  return query.orderBy('posts.created_at').orderBy('posts.id')
    .limit(limit).offset('skip' in start ? start.skip : 0).execute();
}
