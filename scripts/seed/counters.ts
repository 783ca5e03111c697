// After a bulk load, every counter is computed from the base tables in a few set-based
// statements: exact by construction, and far faster than maintaining them row by row.
// UPDATE … FROM (SQLite 3.33+, PostgreSQL) has no form in Kysely's builder, hence `sql`.
import { sql } from 'kysely';
import type { DB } from '../../server/schema.ts';
import { averageRating, computeMojo } from '../../server/mojo/mojo.formula.ts';

const STATEMENTS = [
  sql`UPDATE posts SET ratings_count = r.n, ratings_sum = r.s, average_rating = round(r.s * 1.0 / r.n, 2)
     FROM (SELECT post_id, count(*) AS n, sum(rating) AS s FROM ratings GROUP BY post_id) AS r
     WHERE posts.id = r.post_id`,
  sql`UPDATE posts SET comments_count = c.n
     FROM (SELECT post_id, count(*) AS n FROM comments GROUP BY post_id) AS c WHERE posts.id = c.post_id`,
  // Readers who rate or comment also read; others only read. Deterministic from the id.
  sql`UPDATE posts SET visits = ratings_count * 3 + comments_count * 2 + (id * 7919) % 40`,
  sql`DELETE FROM hashtags`,
  sql`INSERT INTO hashtags (tag, posts_count)
     SELECT ph.tag, sum(CASE WHEN p.archived = 0 AND p.status = 'published' THEN 1 ELSE 0 END)
     FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id GROUP BY ph.tag`,
  sql`UPDATE users SET posts_count = 0, followers_count = 0, following_count = 0, received_visits = 0,
     received_ratings_count = 0, received_ratings_sum = 0, received_comments_count = 0`,
  sql`UPDATE users SET posts_count = a.n, received_visits = a.v, received_ratings_count = a.rc, received_ratings_sum = a.rs
     FROM (SELECT author_id, count(*) AS n, sum(visits) AS v, sum(ratings_count) AS rc, sum(ratings_sum) AS rs
           FROM posts WHERE archived = 0 AND status = 'published' GROUP BY author_id) AS a
     WHERE users.id = a.author_id`,
  sql`UPDATE users SET received_comments_count = c.n
     FROM (SELECT p.author_id, count(*) AS n FROM comments c JOIN posts p ON p.id = c.post_id
           WHERE p.archived = 0 AND p.status = 'published' AND (c.author_id IS NULL OR c.author_id <> p.author_id) GROUP BY p.author_id) AS c
     WHERE users.id = c.author_id`,
  sql`UPDATE users SET followers_count = f.n
     FROM (SELECT followee_id, count(*) AS n FROM follows GROUP BY followee_id) AS f WHERE users.id = f.followee_id`,
  sql`UPDATE users SET following_count = f.n
     FROM (SELECT follower_id, count(*) AS n FROM follows GROUP BY follower_id) AS f WHERE users.id = f.follower_id`,
];

export async function recountEverything(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const statement of STATEMENTS) await statement.execute(trx);
    // Mojo's formula lives in TypeScript (mojo.formula.ts), so it is applied user by user.
    const users = await trx.selectFrom('users').select(['id', 'received_ratings_count', 'received_ratings_sum',
      'received_comments_count', 'received_visits', 'followers_count']).execute();
    for (const u of users) {
      const mojo = computeMojo({
        ratingsCount: u.received_ratings_count, ratingsSum: u.received_ratings_sum,
        comments: u.received_comments_count, visits: u.received_visits, followers: u.followers_count,
      });
      await trx.updateTable('users')
        .set({ mojo, received_average_rating: averageRating(u.received_ratings_sum, u.received_ratings_count) })
        .where('id', '=', u.id).execute();
    }
    // The ledger starts as an old site's does (migration 0012): one recompute event per author.
    await sql`DELETE FROM mojo_events`.execute(trx);
    await sql`INSERT INTO mojo_events (user_id, at, delta, mojo_after, cause)
      SELECT id, ${new Date().toISOString()}, CAST(round(mojo * 100) AS integer), CAST(round(mojo * 100) AS integer), 'recompute'
      FROM users WHERE CAST(round(mojo * 100) AS integer) <> 0 ORDER BY id`.execute(trx);
  });
}
