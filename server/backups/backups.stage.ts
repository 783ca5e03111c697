// Staging a backup: the database and the images written into a folder, as the archive will hold
// them (backups.archive.ts). SQLite's part is its online copy (VACUUM INTO: one read transaction,
// the server writing meanwhile), checked with integrity_check; PostgreSQL's is every table the
// copy to PostgreSQL knows (COPY_ORDER), read in one snapshot through the app.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { dialectOf, openDatabase } from '../db.ts';
import type { ImageStore } from '../images/image-store.ts';
import { COPY_ORDER, ID_TABLES, MIGRATION_TABLES } from '../maintenance/copy-database.ts';
import { inSnapshot, postgresIdCounters, rowBatches } from '../postgres/postgres.export.ts';
import { inspectPostgresTables } from '../postgres/postgres.import.ts';
import type { DB } from '../schema.ts';
import { backupDatabaseApart } from '../sqlite/sqlite.files.ts';
import { ARCHIVE_FORMAT, DATABASE_DIR, IMAGES_DIR, SQLITE_COPY, type Manifest } from './backups.archive.ts';
import { appliedMigrations, countTables } from './backups.repo.ts';

/** Images fetched at once from the store: enough to hide a bucket's round trips. */
const PARALLEL_IMAGES = 8;

/** Writes the database (on SQLite, the file `sqliteFile`) into `dir`/database; the manifest's part about it. */
export async function stageDatabase(db: DB, sqliteFile: string, dir: string): Promise<Omit<Manifest, 'images'>> {
  const into = path.join(dir, DATABASE_DIR);
  await mkdir(into, { recursive: true });
  const created_at = new Date().toISOString();
  if (dialectOf(db) === 'sqlite') {
    const file = path.join(into, SQLITE_COPY);
    const { integrity } = await backupDatabaseApart(sqliteFile, file);
    if (integrity !== 'ok') throw new Error(`the database's copy failed integrity_check: ${integrity}`);
    // Counted in the copy itself: what the archive holds, whatever the server wrote since.
    const copy = openDatabase(file);
    try {
      return { format: ARCHIVE_FORMAT, dialect: 'sqlite', created_at, migrations: await appliedMigrations(copy), tables: await countTables(copy, COPY_ORDER) };
    } finally {
      await copy.destroy();
    }
  }
  const known = new Set<string>([...COPY_ORDER, ...MIGRATION_TABLES]);
  const unknown = (await inspectPostgresTables(db)).map((t) => t.name).filter((name) => !known.has(name));
  // A table the archive would leave out is data lost on restore: no archive rather than a short one.
  if (unknown.length > 0) throw new Error(`the database has tables a backup does not know (${unknown.join(', ')}): add them to COPY_ORDER`);
  return inSnapshot(db, async (trx) => {
    const tables: Record<string, number> = {};
    for (const table of COPY_ORDER) tables[table] = await writeRows(trx, table, path.join(into, `${table}.jsonl`));
    const ids = Object.fromEntries(await postgresIdCounters(trx, ID_TABLES));
    return { format: ARCHIVE_FORMAT, dialect: 'postgres', created_at, migrations: await appliedMigrations(trx), tables, ids };
  });
}

/** One table's rows as JSON lines; how many. */
async function writeRows(trx: DB, table: string, file: string): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx' });
  const failed = once(out, 'error').then(([err]) => { throw err; });
  failed.catch(() => {});
  let rows = 0;
  for await (const batch of rowBatches(trx, table)) {
    const text = batch.map((row) => JSON.stringify(row)).join('\n') + '\n';
    rows += batch.length;
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  }
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
  return rows;
}

/** Copies every image of the store into `dir`/images; how many. An image deleted meanwhile is left out. */
export async function stageImages(store: ImageStore, dir: string): Promise<number> {
  const into = path.join(dir, IMAGES_DIR);
  await mkdir(into, { recursive: true });
  const names = await store.names();
  let next = 0;
  let copied = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      try {
        await store.saveTo(name, path.join(into, name));
        copied += 1;
      } catch (err) {
        if (!isGone(err)) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_IMAGES, names.length) }, worker));
  return copied;
}

/** The image was removed between the listing and its copy (a post deleted meanwhile). */
function isGone(err: unknown): boolean {
  const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  return e.code === 'ENOENT' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
