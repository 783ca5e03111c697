// Remote authors' pictures kept here, never loaded from their servers (DESIGN.md, The fediverse):
// - remote_actors.avatar: the name, in the image store, of the local copy of the actor's picture
//   (re-encoded as every avatar is), made by a `federation.avatar` job from avatar_url, which stays
//   the address their server gave; null until it is made, or when there is none to make.
// - for the actors met before, one such job each, so that their copies are made too.
// The same SQL on both databases but for the column's type and the JSON; SQLite runs it in a
// transaction of its own (Kysely runs SQLite migrations outside one), PostgreSQL inside the
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
    const payload = sqlite ? `json_object('actorId', id, 'url', avatar_url)` : `json_build_object('actorId', id, 'url', avatar_url)::text`;
    const now = sqlite ? `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` : `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return [
      `ALTER TABLE remote_actors ADD COLUMN avatar ${sqlite ? 'TEXT' : 'text COLLATE "C"'}`,
      `INSERT INTO jobs (kind, payload, run_at, created_at)
        SELECT 'federation.avatar', ${payload}, ${now}, ${now} FROM remote_actors WHERE avatar_url IS NOT NULL ORDER BY id`,
    ];
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await run(db, () => [
    `DELETE FROM jobs WHERE kind = 'federation.avatar'`,
    `ALTER TABLE remote_actors DROP COLUMN avatar`,
  ]);
}
