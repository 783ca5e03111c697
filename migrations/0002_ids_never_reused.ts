// Ids are never reused (DESIGN.md, Edges). A plain INTEGER PRIMARY KEY hands the next row
// max(id) + 1, so deleting the newest post gave its id, and its old links, notifications and
// moderation records, to the next one. AUTOINCREMENT keeps the largest id ever used in
// sqlite_sequence instead. SQLite cannot add it to a table in place: each table whose ids appear
// in URLs or references is rebuilt by the documented procedure
// (https://www.sqlite.org/lang_altertable.html#otheralter): foreign keys off outside any
// transaction (their ON DELETE actions would fire on DROP TABLE and empty the child tables), then
// in one transaction create the new table, copy every row with its id, drop the old one, rename
// the new one, recreate its indexes, and check every foreign key before committing.
//
// The counters start at each table's largest id (the copy sets them), and posts' also at the
// largest post id the moderation log names. Ids deleted earlier, above today's largest, were
// never recorded anywhere and cannot be known: a database upgraded from 0001 may still give one
// of those out once, never an id that exists or existed after this migration.
//
// Tables keyed by other tables' ids (post_ranks, post_visits, ratings, …) need nothing.
// Kysely runs SQLite migrations outside a transaction (its SQLite adapter has no transactional
// DDL), which is what lets this one switch foreign keys off.
import { type Kysely, sql } from 'kysely';

const TABLES = ['users', 'posts', 'comments', 'notifications', 'moderation_log'];

const PLAIN_ID = 'id INTEGER PRIMARY KEY,';
const NEVER_REUSED_ID = 'id INTEGER PRIMARY KEY AUTOINCREMENT,';

export async function up(db: Kysely<any>): Promise<void> {
  await rebuildTables(db, PLAIN_ID, NEVER_REUSED_ID, async (trx) => {
    // An admin-deleted article's id stays in the log: no new article may take it.
    await sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'posts', 0
      WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'posts')`.execute(trx);
    await sql`UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(post_id), 0) FROM moderation_log))
      WHERE name = 'posts'`.execute(trx);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuildTables(db, NEVER_REUSED_ID, PLAIN_ID, async () => {});
}

async function rebuildTables(
  db: Kysely<any>, fromId: string, toId: string, finish: (trx: Kysely<any>) => Promise<void>,
): Promise<void> {
  const foreignKeysWereOn = await foreignKeysOn(db);
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  // Inside a transaction the pragma is silently ignored, and DROP TABLE would cascade.
  if (await foreignKeysOn(db)) throw new Error('0002_ids_never_reused must run outside a transaction');
  try {
    await db.transaction().execute(async (trx) => {
      for (const table of TABLES) await rebuildTable(trx, table, fromId, toId);
      await finish(trx);
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
    });
  } finally {
    if (foreignKeysWereOn) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

async function foreignKeysOn(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  return rows[0]?.foreign_keys === 1;
}

/** Rebuilds `table` with its id column declared `toId`; a table already so declared is left alone. */
async function rebuildTable(trx: Kysely<any>, table: string, fromId: string, toId: string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`
    SELECT type, sql FROM sqlite_master WHERE tbl_name = ${table} AND sql IS NOT NULL`.execute(trx);
  const definition = rows.find((row) => row.type === 'table')?.sql;
  if (!definition) throw new Error(`table ${table} is missing`);
  // The first column, whatever the quoting a rename left on the table's name.
  const head = /^CREATE TABLE ("?)(\w+)\1 \(\s*/.exec(definition);
  if (!head || head[2] !== table) throw new Error(`unexpected definition of ${table}: ${definition}`);
  const rest = definition.slice(head[0].length);
  if (rest.startsWith(toId)) return;
  if (!rest.startsWith(fromId)) throw new Error(`unexpected id column in ${table}: ${definition}`);

  const rebuilt = `beatnik_rebuilt_${table}`;
  // Indexes and triggers go with the old table; they are recreated word for word.
  const dependents = rows.filter((row) => row.type !== 'table').map((row) => row.sql);
  await sql.raw(`CREATE TABLE ${rebuilt} (\n    ${toId}${rest.slice(fromId.length)}`).execute(trx);
  await sql.raw(`INSERT INTO ${rebuilt} SELECT * FROM ${table}`).execute(trx);
  await sql.raw(`DROP TABLE ${table}`).execute(trx);
  await sql.raw(`ALTER TABLE ${rebuilt} RENAME TO ${table}`).execute(trx);
  for (const statement of dependents) await sql.raw(statement).execute(trx);
}
