// SQL for the stats dashboard beyond the counters the user row already keeps.
import type { DB } from '../db.ts';

/** An author's archived articles: a range of the posts_author_created index, no table read. */
export async function countArchivedPosts(db: DB, authorId: number): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('author_id', '=', authorId).where('archived', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
