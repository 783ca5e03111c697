// The two writes a busy site makes most, a rating and a comment, each as one statement on
// PostgreSQL. Through the services' transaction each is seven round trips (BEGIN, a read, three
// or four writes, COMMIT); over TCP every round trip costs both processes a system call and a
// wake-up, and that, not the work, bounded writes at about 1,000/s. One statement of
// data-modifying CTEs does the same writes atomically in one trip, the mojo ledger's event too. The services keep the rules:
// each statement writes only when the service's own checks will pass (ratings.service.ts,
// comments.service.ts), and returns what those checks read.
import { CompiledQuery } from 'kysely';
import type { DB } from '../schema.ts';

/** A post's rating counters, as ratings.repo.ts returns them. */
interface RatingCounters {
  ratings_count: number;
  ratings_sum: number;
  average_rating: number;
}

/**
 * The counters of the author `where` picks moved by `ratings`/`sum`/`comments` (expressions over
 * `source`), with mojo and the average recomputed from the moved counters, as
 * author-stats.repo.ts does. Returns the author's id with their mojo after and before, in
 * hundredths: before is the formula over the counters before the move, as author-stats.repo.ts
 * writes the ledger. RETURNING reads the row this UPDATE wrote, so the pair is exact even when
 * another statement moved the same author a moment before (a CTE reading `users` would see the
 * statement's snapshot instead).
 */
function creditAuthor(source: string, where: string, d: { ratings: string; sum: string; comments: string }): string {
  return `UPDATE users SET
      received_ratings_count = received_ratings_count + ${d.ratings},
      received_ratings_sum = received_ratings_sum + ${d.sum},
      received_comments_count = received_comments_count + ${d.comments},
      mojo = mojo_score(received_ratings_count + ${d.ratings}, received_ratings_sum + ${d.sum},
        received_comments_count + ${d.comments}, received_visits, followers_count),
      received_average_rating = mean_rating(received_ratings_sum + ${d.sum}, received_ratings_count + ${d.ratings})
    FROM ${source} WHERE ${where}
    RETURNING users.id AS author_id, CAST(round(users.mojo * 100) AS integer) AS after_h,
      CAST(round(mojo_score(users.received_ratings_count - ${d.ratings}, users.received_ratings_sum - ${d.sum},
        users.received_comments_count - ${d.comments}, users.received_visits, users.followers_count) * 100) AS integer) AS before_h`;
}

/** The ledger's event for the author `credited` returned, unless their rounded mojo stayed. */
function ledger(cause: string, post: string, actor: string, at: string): string {
  return `INSERT INTO mojo_events (user_id, at, delta, mojo_after, cause, post_id, actor_id)
    SELECT author_id, ${at}, after_h - before_h, after_h, ${cause}, ${post}, ${actor}
    FROM credited WHERE after_h <> before_h`;
}

// $1 post, $2 reader, $3 rating, $4 time. The post is read as ratings.service.ts reads it
// (posts.repo.ts findPostForReader); it is rated only if listed (active and
// published) and someone else's.
const RATE = `WITH target AS (
    SELECT posts.*, users.username AS author_username, users.avatar AS author_avatar,
      coalesce((SELECT rating FROM ratings WHERE post_id = posts.id AND user_id = $2), 0) AS user_rating,
      coalesce((SELECT rating_mean FROM rank_refresh WHERE id = 1), 3) AS rating_mean
    FROM posts JOIN users ON users.id = posts.author_id
    WHERE posts.id = $1
  ), rated AS (
    SELECT id, author_id, CASE WHEN user_rating = 0 THEN 1 ELSE 0 END AS count_delta, $3 - user_rating AS sum_delta
    FROM target WHERE archived = 0 AND status = 'published' AND author_id <> $2
  ), stored AS (
    INSERT INTO ratings (post_id, user_id, rating, created_at, updated_at)
    SELECT id, $2, $3, $4, $4 FROM rated
    ON CONFLICT (post_id, user_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at
  ), counted AS (
    UPDATE posts SET
      ratings_count = ratings_count + count_delta,
      ratings_sum = ratings_sum + sum_delta,
      average_rating = CASE WHEN ratings_count + count_delta > 0
        THEN round((ratings_sum + sum_delta) * 1.0 / (ratings_count + count_delta), 2) ELSE 0 END
    FROM rated WHERE posts.id = rated.id
    RETURNING posts.ratings_count AS new_ratings_count, posts.ratings_sum AS new_ratings_sum,
      posts.average_rating AS new_average_rating
  ), credited AS (
    ${creditAuthor('rated', 'users.id = rated.author_id', { ratings: 'rated.count_delta', sum: 'rated.sum_delta', comments: '0' })}
  ), ledgered AS (
    ${ledger(`CASE WHEN (SELECT count_delta FROM rated) = 1 THEN 'rating_new' ELSE 'rating_changed' END`, '$1', '$2', '$4')}
  )
  SELECT target.*, counted.* FROM target LEFT JOIN counted ON true`;

export interface RatingWrite {
  postId: number;
  userId: number;
  rating: number;
  at: string;
}

/**
 * Rates in one statement. `post` is the post as the reader saw it before, a row of
 * posts.repo.ts findPostForReader (undefined if there is none); `counters` are the post's
 * rating counters after, undefined when nothing was written.
 */
export async function rateInOneStatement<Post extends object>(
  db: DB, w: RatingWrite,
): Promise<{ post?: Post; counters?: RatingCounters }> {
  type Row = Post & { new_ratings_count: number | null; new_ratings_sum: number | null; new_average_rating: number | null };
  const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(RATE, [w.postId, w.userId, w.rating, w.at]));
  const row = rows[0];
  if (!row) return {};
  const { new_ratings_count, new_ratings_sum, new_average_rating, ...rest } = row;
  const post = rest as unknown as Post;
  if (new_ratings_count === null) return { post };
  return { post, counters: { ratings_count: new_ratings_count, ratings_sum: new_ratings_sum!, average_rating: new_average_rating! } };
}

// $1 post, $2 commenter, $3 content, $9 its rendering, $4 time, $5 and $6 the notification's
// message around the post's title. As comments.service.ts: only a listed post (active and published) takes
// comments, its author is credited and notified unless they comment on their own or muted the
// commenter (notifications.service.ts notify).
const COMMENT = `WITH counted AS (
    UPDATE posts SET comments_count = comments_count + 1
    WHERE id = $1 AND archived = 0 AND status = 'published'
    RETURNING id, author_id, title
  ), stored AS (
    INSERT INTO comments (post_id, author_id, content, content_html, created_at, updated_at)
    SELECT id, $2, $3, $9, $4, $4 FROM counted
    RETURNING id
  ), credited AS (
    ${creditAuthor('counted', 'users.id = counted.author_id AND counted.author_id <> $2', { ratings: '0', sum: '0', comments: '1' })}
  ), ledgered AS (
    ${ledger(`'comment_new'`, '$1', '$2', '$4')}
  ), notified AS (
    INSERT INTO notifications (user_id, type, subject, message, created_by_id, created_by, post_id, post_title, created_at)
    SELECT author_id, 'other', $7, $5 || title || $6, $2, $8, id, title, $4 FROM counted WHERE author_id <> $2
      AND NOT EXISTS (SELECT 1 FROM user_mutes WHERE user_mutes.user_id = counted.author_id AND user_mutes.muted_user_id = $2)
  )
  SELECT stored.id FROM stored`;

export interface CommentWrite {
  postId: number;
  author: { id: number; username: string };
  content: string;
  contentHtml: string;
  at: string;
  /** The post author's notification: its subject, and its message as the text before and after the post's title. */
  notice: { subject: string; before: string; after: string };
}

/** Comments in one statement; the new comment's id, undefined when the post takes no comment. */
export async function commentInOneStatement(db: DB, w: CommentWrite): Promise<number | undefined> {
  const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw(COMMENT, [
    w.postId, w.author.id, w.content, w.at, w.notice.before, w.notice.after, w.notice.subject, w.author.username, w.contentHtml,
  ]));
  return rows[0]?.id;
}
