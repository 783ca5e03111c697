// Mutes (DESIGN.md, Accounts, drafts, reports, mutes, moderation log): the authors and the
// hashtags a reader has muted. A muter's lists leave out the posts of the one and those carrying
// the other by NOT EXISTS against these primary keys (user_id first, then what is muted): one
// lookup per listed post, never a scan. user_mutes_muted serves an account's removal, which takes
// the mutes of it as well as its own (and the foreign key on muted_user_id).
// The same SQL on both databases (tags compare byte by byte, as post_hashtags' do); SQLite runs it
// in a transaction of its own (Kysely runs SQLite migrations outside one), PostgreSQL inside the
// migration's.
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
    const rowid = sqlite ? ' WITHOUT ROWID' : '';
    return [
      `CREATE TABLE user_mutes (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        muted_user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at ${text} NOT NULL,
        PRIMARY KEY (user_id, muted_user_id),
        CHECK (user_id <> muted_user_id)
      )${rowid}`,
      `CREATE INDEX user_mutes_muted ON user_mutes(muted_user_id)`,
      `CREATE TABLE hashtag_mutes (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tag ${text} NOT NULL,
        created_at ${text} NOT NULL,
        PRIMARY KEY (user_id, tag)
      )${rowid}`,
    ];
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DROP TABLE hashtag_mutes`,
    `DROP INDEX user_mutes_muted`,
    `DROP TABLE user_mutes`,
  ]);
}
