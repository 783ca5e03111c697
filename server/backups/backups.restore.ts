// restore ARCHIVE (scripts/admin/restore.ts): an archive of backups.archive.ts into an empty data
// directory (SQLite) or an empty PostgreSQL database (DATABASE_URL), its images into the
// configured store, every table's count checked against the manifest, then the migrations this
// version has that the archive's database had not. A SQLite archive also restores into
// PostgreSQL, by the copy migrate-to-postgres makes.
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Config } from '../config.ts';
import { databasePath, knownMigrations, migrateToLatest, migrateUpTo, openDatabase, type DialectName } from '../db.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Logger } from '../log.ts';
import { COPY_ORDER, copyDatabase, loadTables, targetProblem, type Row, type TableName } from '../maintenance/copy-database.ts';
import { runningServerPid } from '../maintenance/pidfile.ts';
import { checkPostgres, describeServer, openPostgres } from '../postgres/postgres.database.ts';
import { vacuumAfterBulkLoad } from '../postgres/postgres.import.ts';
import type { DB } from '../schema.ts';
import { listSqliteTables } from '../sqlite/sqlite.export.ts';
import { integrityOf, isBeatnikDatabase } from '../sqlite/sqlite.files.ts';
import { ArchiveError, DATABASE_DIR, IMAGES_DIR, SECRET_FILE, SQLITE_COPY, unpackArchive, type Manifest } from './backups.archive.ts';
import { countTables } from './backups.repo.ts';

export { ArchiveError };

export interface Restored {
  manifest: Manifest;
  /** Where the database went, for people. */
  target: string;
  /** Migrations run on the restored data afterwards. */
  migrated: string[];
  images: number;
  /** Whether the archive's JWT secret was put in DATA_DIR. */
  secret: boolean;
}

export async function restoreArchive(config: Config, file: string, images: ImageStore, log: Logger): Promise<Restored> {
  const dialect: DialectName = config.databaseUrl ? 'postgres' : 'sqlite';
  if (dialect === 'sqlite') await checkSqliteTarget(config);
  const unpacked = await mkdtemp(path.join(config.dataDir, '.restore-'));
  try {
    const manifest = await unpackArchive(file, unpacked);
    const known = new Set(await knownMigrations(dialect));
    const newer = manifest.migrations.filter((name) => !known.has(name));
    if (newer.length > 0) throw new ArchiveError(`${file} was made by a newer Beatnik (migration ${newer.join(', ')}): upgrade first`);
    const unknown = Object.keys(manifest.tables).filter((table) => !(COPY_ORDER as readonly string[]).includes(table));
    if (unknown.length > 0) throw new ArchiveError(`${file} has tables this Beatnik does not know (${unknown.join(', ')})`);
    if (manifest.dialect === 'postgres' && dialect === 'sqlite') {
      throw new ArchiveError(`${file} is a PostgreSQL archive: restore it with DATABASE_URL set to an empty PostgreSQL database`);
    }
    const restoredImages = await restoreImages(images, path.join(unpacked, IMAGES_DIR));
    const secret = await restoreSecret(config, path.join(unpacked, SECRET_FILE));
    const database = path.join(unpacked, DATABASE_DIR);
    if (dialect === 'sqlite') {
      const migrated = await restoreSqliteFile(config, manifest, path.join(database, SQLITE_COPY), file);
      return { manifest, target: databasePath(config.dataDir), migrated, images: restoredImages, secret };
    }
    const target = openPostgres(config.databaseUrl!, { poolSize: 1 });
    try {
      await checkPostgres(target, config.databaseUrl!);
      const problem = await targetProblem(target);
      const where = `PostgreSQL at ${describeServer(config.databaseUrl!)}`;
      if (problem) throw new ArchiveError(`${where} cannot receive the archive: ${problem}. Give an empty database`);
      const migrated = manifest.dialect === 'postgres'
        ? await loadPostgresRows(target, manifest, database, file)
        : await copySqliteFile(target, manifest, path.join(database, SQLITE_COPY), file);
      await vacuumAfterBulkLoad(target);
      log.info({ archive: file }, 'restored');
      return { manifest, target: where, migrated, images: restoredImages, secret };
    } finally {
      await target.destroy();
    }
  } finally {
    // maxRetries: a failed extraction may still be closing its files.
    await rm(unpacked, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** No server on DATA_DIR, and no data in its database if it has one (a server started once is fine). */
async function checkSqliteTarget(config: Config): Promise<void> {
  const pid = runningServerPid(config.dataDir);
  if (pid !== undefined) throw new ArchiveError(`a server (pid ${pid}) is using ${config.dataDir}: stop it first`);
  const file = databasePath(config.dataDir);
  if (!existsSync(file)) return;
  if (!isBeatnikDatabase(file)) throw new ArchiveError(`${file} exists and is not a Beatnik database: restore into an empty data directory`);
  const db = openDatabase(file);
  try {
    // The schedules a server queues at its start are no one's data.
    const counts = await countTables(db, (await listSqliteTables(db)).filter((table) => table !== 'jobs'));
    const filled = Object.entries(counts).filter(([, n]) => n > 0).map(([table]) => table);
    if (filled.length > 0) {
      const named = filled.length <= 5 ? filled.join(', ') : `${filled.slice(0, 5).join(', ')} and ${filled.length - 5} more`;
      throw new ArchiveError(`${config.dataDir} is not empty (${named} ${filled.length === 1 ? 'has' : 'have'} rows): restore into an empty data directory`);
    }
  } finally {
    await db.destroy();
  }
}

/** Every table the manifest counts, counted again in `db`. */
async function checkCounts(db: DB, manifest: Manifest, file: string, where: string): Promise<void> {
  const counts = await countTables(db, Object.keys(manifest.tables));
  const wrong = Object.entries(manifest.tables).filter(([table, n]) => counts[table] !== n);
  if (wrong.length > 0) {
    const [table, n] = wrong[0]!;
    throw new ArchiveError(`${where} has ${counts[table]} rows in ${table} where the manifest of ${file} says ${n}`);
  }
}

/** The archive's file, checked, in DATA_DIR's place, then migrated. */
async function restoreSqliteFile(config: Config, manifest: Manifest, copy: string, file: string): Promise<string[]> {
  await checkSqliteCopy(manifest, copy, file);
  const target = databasePath(config.dataDir);
  for (const suffix of ['', '-wal', '-shm']) await rm(target + suffix, { force: true });
  await rename(copy, target);
  const db = openDatabase(target);
  try {
    return await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

async function checkSqliteCopy(manifest: Manifest, copy: string, file: string): Promise<void> {
  if (!isBeatnikDatabase(copy)) throw new ArchiveError(`${file} holds no Beatnik database`);
  const integrity = integrityOf(copy);
  if (integrity !== 'ok') throw new ArchiveError(`the database in ${file} failed integrity_check: ${integrity}`);
  const db = openDatabase(copy);
  try {
    await checkCounts(db, manifest, file, 'its database');
  } finally {
    await db.destroy();
  }
}

/**
 * A PostgreSQL archive's rows into `target`: the schema as the archive's database had it, the rows
 * (a table whose lines differ from the manifest's count undoes the whole load), then the rest.
 */
async function loadPostgresRows(target: DB, manifest: Manifest, dir: string, file: string): Promise<string[]> {
  const last = manifest.migrations.at(-1);
  if (last) await migrateUpTo(target, last);
  const tables = COPY_ORDER.filter((table) => table in manifest.tables);
  await loadTables(target, {
    tables,
    totals: manifest.tables as Record<TableName, number>,
    everGiven: new Map(Object.entries(manifest.ids ?? {})),
    rows: (table) => jsonRows(path.join(dir, `${table}.jsonl`), table, manifest.tables[table]!, file),
  }, { rows: () => {}, step: () => {} });
  await checkCounts(target, manifest, file, 'the restored database');
  return migrateToLatest(target);
}

async function* jsonRows(jsonl: string, table: string, expected: number, file: string): AsyncGenerator<Row> {
  let rows = 0;
  for await (const line of createInterface({ input: createReadStream(jsonl), crlfDelay: Infinity })) {
    if (line === '') continue;
    try {
      yield JSON.parse(line) as Row;
    } catch (err) {
      if (err instanceof SyntaxError) throw new ArchiveError(`${file} has a damaged row in ${table}`);
      throw err;
    }
    rows += 1;
  }
  if (rows !== expected) throw new ArchiveError(`${file} holds ${rows} rows of ${table} where its manifest says ${expected}`);
}

/** A SQLite archive into PostgreSQL: migrate-to-postgres's copy, from the archive's file. */
async function copySqliteFile(target: DB, manifest: Manifest, copy: string, file: string): Promise<string[]> {
  await checkSqliteCopy(manifest, copy, file);
  const source = openDatabase(copy);
  try {
    const migrated = await migrateToLatest(source);
    await migrateToLatest(target);
    await copyDatabase(source, target, { rows: () => {}, step: () => {} });
    await checkCounts(target, manifest, file, 'the restored database');
    return migrated;
  } finally {
    await source.destroy();
  }
}

/** The archive's images into the store, which may already hold them but no others; how many. */
async function restoreImages(store: ImageStore, dir: string): Promise<number> {
  const names = (await readdir(dir).catch(() => [])).sort();
  const ours = new Set(names);
  const foreign = (await store.names()).filter((name) => !ours.has(name));
  if (foreign.length > 0) {
    throw new ArchiveError(`${store.location} is not empty (it holds ${foreign.length} images the archive does not, such as ${foreign[0]}): restore into an empty one`);
  }
  for (const name of names) await store.putFile(name, path.join(dir, name));
  const stored = new Set(await store.names());
  const lost = names.filter((name) => !stored.has(name));
  if (lost.length > 0) throw new ArchiveError(`${lost.length} images did not reach ${store.location}, such as ${lost[0]}`);
  return names.length;
}

/** The site's secret, as it was, into DATA_DIR (the target is empty: the one there is new). */
async function restoreSecret(config: Config, file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  const target = path.join(config.dataDir, SECRET_FILE);
  await copyFile(file, target);
  await chmod(target, 0o600);
  return true;
}
