// Who may join (DESIGN.md, Running a community, Registration):
// - users.pending: 1 while an account made in 'approval' mode waits for an admin. Such an account
//   cannot sign in and is nobody's to see but the admins': no profile, mention or follow reaches it
//   (users.service.ts); it has no articles, so no list of authors holds it. users_pending is the
//   admins' 'Pending' tab, oldest first. Approval sets it to 0; a rejection deletes the account.
// - invites: the codes of 'invite' mode, each good for uses_left registrations until expires_at.
//   A registration takes one use in its own transaction; a code used up or expired is no longer
//   live and is deleted when the next one is made.
// The same SQL on both databases; SQLite runs it in a transaction of its own (Kysely runs SQLite
// migrations outside one), PostgreSQL inside the migration's.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

async function run(db: Kysely<any>, statements: (sqlite: boolean) => string[]): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const apply = async (trx: Kysely<any>) => {
    for (const statement of statements(sqlite)) await sql.raw(statement).execute(trx);
  };
  if (sqlite) await db.transaction().execute(apply);
  else await apply(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await run(db, (sqlite) => {
    const text = sqlite ? 'TEXT' : 'text COLLATE "C"';
    return [
      `ALTER TABLE users ADD COLUMN pending INTEGER NOT NULL DEFAULT 0`,
      `CREATE INDEX users_pending ON users(created_at, id) WHERE pending = 1`,
      `CREATE TABLE invites (
        code ${text} PRIMARY KEY,
        created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
        uses_left INTEGER NOT NULL CHECK (uses_left >= 0),
        expires_at ${text} NOT NULL,
        created_at ${text} NOT NULL
      )`,
      `CREATE INDEX invites_expires ON invites(expires_at)`,
      `CREATE INDEX invites_created_by ON invites(created_by)`,
    ];
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP TABLE invites`,
    `DROP INDEX users_pending`,
    `ALTER TABLE users DROP COLUMN pending`,
  ]);
}
