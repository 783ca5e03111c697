// The mojo ledger (DESIGN.md, Transparency: the scores explain themselves): every change of an
// author's mojo, with its cause, written in the same transaction or statement as the change
// (docs/mojo.md, The ledger).
//
// delta and mojo_after are in hundredths of a point, as integers: mojo is rounded to two
// decimals, and sums of integers are exact where sums of REALs drift. A user's deltas add up to
// round(mojo × 100); check-counters verifies it.
//
// post_id names the article the change came from, with no reference: an event outlives its
// article (ids are never reused, 0002). actor_id (the rater, commenter or follower; never a
// reader behind visits) is set to NULL when that account goes; a user's own events go with them.
//
// Old sites start with one `recompute` event per user whose mojo is not 0, equal to it, so the
// ledger adds up from the first day. The PostgreSQL twin is in postgres/.
import { type Kysely, sql } from 'kysely';

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const CAUSES = `'rating_new', 'rating_changed', 'comment_new', 'comment_removed', 'follower_new',
  'follower_lost', 'visits', 'post_removed', 'recompute'`;

const statements = [
  `CREATE TABLE mojo_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    delta INTEGER NOT NULL,          -- hundredths of a point
    mojo_after INTEGER NOT NULL,     -- hundredths of a point
    cause TEXT NOT NULL CHECK (cause IN (${CAUSES})),
    post_id INTEGER,                 -- no reference: the event outlives its article
    actor_id INTEGER REFERENCES users(id) ON DELETE SET NULL
  )`,
  // A user's events newest first (GET /api/users/:id/mojo), and their sum (check-counters).
  `CREATE INDEX mojo_events_user ON mojo_events(user_id, id)`,
  // An account's removal sets its actor_id to NULL: found by this, not by reading the whole table.
  `CREATE INDEX mojo_events_actor ON mojo_events(actor_id) WHERE actor_id IS NOT NULL`,
  `INSERT INTO mojo_events (user_id, at, delta, mojo_after, cause)
    SELECT id, ${NOW}, CAST(round(mojo * 100) AS INTEGER), CAST(round(mojo * 100) AS INTEGER), 'recompute'
    FROM users WHERE CAST(round(mojo * 100) AS INTEGER) <> 0 ORDER BY id`,
];

export async function up(db: Kysely<any>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: a failure must leave nothing half built.
  await db.transaction().execute(async (trx) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS mojo_events`.execute(db);
}
