// Ending sessions on the server (DESIGN.md, Accounts: settings). Every token carries its user's
// token version, compared with the user row on every request: bumping it ends every session of
// the user at once (sign out everywhere, a new password, a ban). One session alone ends at
// POST /api/auth/logout: its token is written here, as a hash, until it would have expired
// anyway, and every authenticated request looks it up by the primary key in the same statement
// that reads its user (server/auth/sessions.repo.ts). A table, not a process's memory: on
// PostgreSQL every instance sees the same list. Tokens signed before this migration need nothing
// new: they are ended the same way.
// Deleting an account deletes its user row; the indexes below keep the foreign keys that point at
// users from scanning their whole table for each deleted account (notifications the account sent,
// bans it gave).
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
  await run(db, (sqlite) => [
    `CREATE TABLE revoked_tokens (
      token_hash TEXT PRIMARY KEY,         -- SHA-256 of the token, base64url: never the token itself
      expires_at TEXT NOT NULL             -- the token's own expiry: after it, the row is forgotten
    )${sqlite ? ' WITHOUT ROWID' : ''}`,
    `CREATE INDEX revoked_tokens_expiry ON revoked_tokens(expires_at)`,
    `CREATE INDEX notifications_created_by ON notifications(created_by_id)`,
    `CREATE INDEX users_banned_by ON users(banned_by)`,
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP INDEX users_banned_by`,
    `DROP INDEX notifications_created_by`,
    `DROP TABLE revoked_tokens`,
  ]);
}
