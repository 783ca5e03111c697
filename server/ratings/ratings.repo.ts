// SQL for ratings: one row per reader and post. Plain SQL: rating is a hot write (connection.ts).
import type { Connection } from '../connection.ts';

/** Stores the reader's rating; returns the rating it replaced, if any. */
export function upsertRating(conn: Connection, postId: number, userId: number, rating: number, at: string): number | undefined {
  const previous = findUserRating(conn, postId, userId);
  conn.run(
    `INSERT INTO ratings (post_id, user_id, rating, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (post_id, user_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at`,
    postId, userId, rating, at, at,
  );
  return previous === 0 ? undefined : previous;
}

export function adjustPostRatings(conn: Connection, postId: number, countDelta: number, sumDelta: number): void {
  conn.run(
    `UPDATE posts SET
       ratings_count = ratings_count + ?,
       ratings_sum = ratings_sum + ?,
       average_rating = CASE WHEN ratings_count + ? > 0
         THEN round((ratings_sum + ?) * 1.0 / (ratings_count + ?), 2) ELSE 0 END
     WHERE id = ?`,
    countDelta, sumDelta, countDelta, sumDelta, countDelta, postId,
  );
}

/** The reader's rating of the post, 0 when none. */
export function findUserRating(conn: Connection, postId: number, userId: number): number {
  return conn.get<{ rating: number }>('SELECT rating FROM ratings WHERE post_id = ? AND user_id = ?', postId, userId)?.rating ?? 0;
}
