// Two-factor sign-in (DESIGN.md, Running a community: TOTP, RFC 6238, 30 s, 6 digits):
// - users.two_factor_enabled: 1 once a code confirmed the set-up. The flag lives on the row every
//   signed-in request already reads, so that ADMIN_2FA=required and GET /api/users/me cost no
//   further query; the secret itself never does (it stays out of every user row).
// - two_factor: one row per account being set up (confirmed 0) or on (confirmed 1): the base32
//   secret and the last time step whose code was accepted, so a code is used once (no replay).
// - two_factor_recovery_codes: the SHA-256 of each single-use recovery code, deleted when used.
// The same SQL on both databases but for the text columns; SQLite runs it in a transaction of its
// own (Kysely runs SQLite migrations outside one), PostgreSQL inside the migration's.
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
      `ALTER TABLE users ADD COLUMN two_factor_enabled INTEGER NOT NULL DEFAULT 0`,
      `CREATE TABLE two_factor (
        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        secret ${text} NOT NULL,
        confirmed INTEGER NOT NULL DEFAULT 0,
        last_step INTEGER NOT NULL DEFAULT 0,
        created_at ${text} NOT NULL
      )`,
      `CREATE TABLE two_factor_recovery_codes (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash ${text} NOT NULL,
        PRIMARY KEY (user_id, code_hash)
      )`,
    ];
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP TABLE two_factor_recovery_codes`,
    `DROP TABLE two_factor`,
    `ALTER TABLE users DROP COLUMN two_factor_enabled`,
  ]);
}
