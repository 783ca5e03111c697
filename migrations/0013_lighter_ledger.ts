// The mojo ledger's event was the dearest part of a rating or a comment: a commit writes every
// page it changed to the WAL, and the event changed four (docs/performance.md, What issue 17
// costs). Two of them bought little:
// - AUTOINCREMENT kept the largest id in sqlite_sequence, one more page in every commit. An
//   event's id appears in no URL and no reference (0002 gave AUTOINCREMENT only to those), and
//   orders a user's own events; a plain INTEGER PRIMARY KEY hands out max(id) + 1, so an id is
//   given again only if the newest event went with its account.
// - mojo_events_actor, a leaf of an index by a random user in every commit, served only an
//   account's removal, whose ON DELETE SET NULL now reads the table instead: a rare act, where
//   a rating is the commonest.
// SQLite cannot drop AUTOINCREMENT in place: the table is rebuilt (nothing references it, so
// foreign keys may stay on). The PostgreSQL twin only drops the index.
import { type Kysely, sql } from 'kysely';

const CAUSES = `'rating_new', 'rating_changed', 'comment_new', 'comment_removed', 'follower_new',
  'follower_lost', 'visits', 'post_removed', 'recompute'`;

const table = (id: string) => `CREATE TABLE mojo_events_new (
    ${id},
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    delta INTEGER NOT NULL,          -- hundredths of a point
    mojo_after INTEGER NOT NULL,     -- hundredths of a point
    cause TEXT NOT NULL CHECK (cause IN (${CAUSES})),
    post_id INTEGER,                 -- no reference: the event outlives its article
    actor_id INTEGER REFERENCES users(id) ON DELETE SET NULL
  )`;

const rebuild = (id: string, indexes: string[]) => [
  table(id),
  `INSERT INTO mojo_events_new (id, user_id, at, delta, mojo_after, cause, post_id, actor_id)
    SELECT id, user_id, at, delta, mojo_after, cause, post_id, actor_id FROM mojo_events ORDER BY id`,
  `DROP TABLE mojo_events`,
  `ALTER TABLE mojo_events_new RENAME TO mojo_events`,
  // A user's events newest first (GET /api/users/:id/mojo), and their sum (check-counters).
  `CREATE INDEX mojo_events_user ON mojo_events(user_id, id)`,
  ...indexes,
];

async function run(db: Kysely<any>, statements: string[]): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: a failure must leave nothing half built.
  await db.transaction().execute(async (trx) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  });
}

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, rebuild('id INTEGER PRIMARY KEY', []));
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, rebuild('id INTEGER PRIMARY KEY AUTOINCREMENT', [
    `CREATE INDEX mojo_events_actor ON mojo_events(actor_id) WHERE actor_id IS NOT NULL`,
  ]));
}
