// What a new account wrote in the last hour, for its brakes: the times of its newest articles and
// comments, each list read through the author's index (posts_author_listed, comments_author).
import type { DB } from '../schema.ts';

/** The publication times of the author's articles since `since`, oldest first, at most `limit`. */
export async function listArticleTimesSince(db: DB, authorId: number, since: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('posts').select('created_at')
    .where('author_id', '=', authorId).where('status', '=', 'published').where('created_at', '>', since)
    .orderBy('created_at').limit(limit).execute();
  return rows.map((row) => row.created_at);
}

/** The times of the author's comments since `since`, oldest first, at most `limit`. */
export async function listCommentTimesSince(db: DB, authorId: number, since: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('comments').select('created_at')
    .where('author_id', '=', authorId).where('created_at', '>', since)
    .orderBy('created_at').limit(limit).execute();
  return rows.map((row) => row.created_at);
}
