// A backup archive on disk (DESIGN.md, Running a community): one .tar.gz holding
//   manifest.json         what it is, so that a restore can check itself (Manifest below)
//   database/beatnik.db   SQLite: the online copy
//   database/<table>.jsonl  PostgreSQL: every table, one JSON row a line
//   images/<name>         every image of the store
//   jwt-secret            the secret DATA_DIR/jwt-secret holds, when the site uses that one: with
//                         it, sessions, unsubscribe links and visit counts go on after a restore
// Written from a staged folder by tar (streamed from disk to disk, gzip on the way), under a
// temporary name renamed once whole, so that a half-written archive never passes for one.
import { existsSync, type Stats } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { create, extract, type ReadEntry } from 'tar';
import type { DialectName } from '../db.ts';
import { isImageName } from '../images/image-store.ts';

export const ARCHIVE_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_DIR = 'database';
export const IMAGES_DIR = 'images';
/** SQLite's copy, inside DATABASE_DIR. */
export const SQLITE_COPY = 'beatnik.db';
/** The generated JWT secret, as DATA_DIR keeps it (server/config.ts). */
export const SECRET_FILE = 'jwt-secret';

export interface Manifest {
  format: number;
  dialect: DialectName;
  /** When the database was read (ISO 8601, UTC). */
  created_at: string;
  /** The migrations the database had applied, in order. */
  migrations: string[];
  /** Rows of each table, as read. */
  tables: Record<string, number>;
  /** PostgreSQL: the last id each identity column had given out (deleted rows' included). */
  ids?: Record<string, number>;
  /** Image files in images/. */
  images: number;
}

/** An archive that cannot be restored: its one-line reason. */
export class ArchiveError extends Error {}

/** Packs the staged folder into `file` (through `file`.partial); its size in bytes. */
export async function packArchive(staged: string, file: string): Promise<number> {
  const partial = `${file}.partial`;
  try {
    const parts = [MANIFEST_FILE, DATABASE_DIR, IMAGES_DIR, ...(existsSync(path.join(staged, SECRET_FILE)) ? [SECRET_FILE] : [])];
    await create({ gzip: true, file: partial, cwd: staged, portable: true }, parts);
    // On disk before it takes its name: a crash now leaves a .partial, never a short archive.
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return (await stat(file)).size;
}

/** What an archive may hold: its own three parts, files and hard links only (no way out of `dir`). */
function allowed(entryPath: string, entry: ReadEntry | Stats): boolean {
  if (!('header' in entry)) return false; // only ever a ReadEntry when extracting
  const name = entryPath.replace(/\/$/, '');
  const type = entry.type;
  if (type === 'Directory') return name === DATABASE_DIR || name === IMAGES_DIR;
  const [folder, file, ...rest] = name.split('/');
  const inside = name === MANIFEST_FILE || name === SECRET_FILE
    || (rest.length === 0 && folder === DATABASE_DIR && (file === SQLITE_COPY || /^[a-z_]+\.jsonl$/.test(file ?? '')))
    || (rest.length === 0 && folder === IMAGES_DIR && isImageName(file ?? ''));
  if (type === 'Link') return inside && folder === IMAGES_DIR && /^images\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(entry.linkpath ?? '');
  return inside && (type === 'File' || type === 'OldFile' || type === 'ContiguousFile');
}

/** Unpacks `file` into the empty folder `dir` and returns its manifest, checked against what came out. */
export async function unpackArchive(file: string, dir: string): Promise<Manifest> {
  if (!existsSync(file)) throw new ArchiveError(`no such file: ${file}`);
  try {
    await extract({ file, cwd: dir, strict: true, filter: allowed });
  } catch (err) {
    throw new ArchiveError(`${file} is damaged or not a whole archive (${(err as Error).message})`);
  }
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new ArchiveError(`${file} is not a Beatnik backup archive (it has no ${MANIFEST_FILE})`);
  const manifest = parseManifest(await readFile(manifestFile, 'utf8'), file);
  const database = path.join(dir, DATABASE_DIR);
  if (manifest.dialect === 'sqlite' && !existsSync(path.join(database, SQLITE_COPY))) {
    throw new ArchiveError(`${file} lacks its database (${DATABASE_DIR}/${SQLITE_COPY})`);
  }
  if (manifest.dialect === 'postgres') {
    const missing = Object.keys(manifest.tables).filter((table) => !existsSync(path.join(database, `${table}.jsonl`)));
    if (missing.length > 0) throw new ArchiveError(`${file} lacks the rows of ${missing.join(', ')}`);
  }
  const images = (await readdir(path.join(dir, IMAGES_DIR)).catch(() => [])).filter(isImageName).length;
  if (images !== manifest.images) {
    throw new ArchiveError(`${file} holds ${images} images where its manifest says ${manifest.images}`);
  }
  return manifest;
}

function parseManifest(text: string, file: string): Manifest {
  let value: Partial<Manifest>;
  try {
    value = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new ArchiveError(`${file} has a manifest that is not JSON`);
  }
  if (value.format !== ARCHIVE_FORMAT) {
    throw new ArchiveError(`${file} is an archive of format ${String(value.format)}; this Beatnik reads format ${ARCHIVE_FORMAT}`);
  }
  const counts = (v: unknown) => typeof v === 'object' && v !== null
    && Object.entries(v).every(([k, n]) => /^[a-z_]+$/.test(k) && Number.isInteger(n) && (n as number) >= 0);
  if ((value.dialect !== 'sqlite' && value.dialect !== 'postgres') || !Array.isArray(value.migrations)
      || !value.migrations.every((m) => typeof m === 'string') || !counts(value.tables)
      || (value.ids !== undefined && !counts(value.ids)) || !Number.isInteger(value.images) || typeof value.created_at !== 'string') {
    throw new ArchiveError(`${file} has a manifest this Beatnik cannot read`);
  }
  return value as Manifest;
}
