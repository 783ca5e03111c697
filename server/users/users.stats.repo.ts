// SQL for the stats dashboard beyond the counters the user row already keeps.
import type { DB, PostStatus } from '../schema.ts';

/** An author's archived articles: a range of the posts_author_listed index, no table read. */
export function countArchivedPosts(db: DB, authorId: number): Promise<number> {
  return countAuthorPosts(db, authorId, 'published', 1);
}

/** An author's drafts (never archived): a range of the same index. */
export function countDraftPosts(db: DB, authorId: number): Promise<number> {
  return countAuthorPosts(db, authorId, 'draft', 0);
}

async function countAuthorPosts(db: DB, authorId: number, status: PostStatus, archived: number): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('author_id', '=', authorId).where('status', '=', status).where('archived', '=', archived)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
