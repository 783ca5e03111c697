// The counters on a user row that follow from other tables, and the mojo derived from them.
// Always called inside the transaction of the write that changes them; plain SQL, as ratings,
// comments and visits move them on every request (connection.ts).
import type { Connection } from '../connection.ts';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';

export interface AuthorStatsDelta {
  posts?: number;
  visits?: number;
  ratingsCount?: number;
  ratingsSum?: number;
  comments?: number;
  followers?: number;
  following?: number;
}

interface MojoInputs {
  received_ratings_count: number;
  received_ratings_sum: number;
  received_comments_count: number;
  received_visits: number;
  followers_count: number;
}

export function adjustAuthorStats(conn: Connection, userId: number, delta: AuthorStatsDelta): void {
  const row = conn.get<MojoInputs>(
    `UPDATE users SET
       posts_count = posts_count + ?,
       received_visits = received_visits + ?,
       received_ratings_count = received_ratings_count + ?,
       received_ratings_sum = received_ratings_sum + ?,
       received_comments_count = received_comments_count + ?,
       followers_count = followers_count + ?,
       following_count = following_count + ?
     WHERE id = ?
     RETURNING received_ratings_count, received_ratings_sum, received_comments_count, received_visits, followers_count`,
    delta.posts ?? 0, delta.visits ?? 0, delta.ratingsCount ?? 0, delta.ratingsSum ?? 0,
    delta.comments ?? 0, delta.followers ?? 0, delta.following ?? 0, userId,
  );
  if (!row) return;
  const mojo = computeMojo({
    ratingsCount: row.received_ratings_count,
    ratingsSum: row.received_ratings_sum,
    comments: row.received_comments_count,
    visits: row.received_visits,
    followers: row.followers_count,
  });
  conn.run('UPDATE users SET mojo = ?, received_average_rating = ? WHERE id = ?',
    mojo, averageRating(row.received_ratings_sum, row.received_ratings_count), userId);
}
