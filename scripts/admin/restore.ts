// restore FILE: replaces the database with a backup. Refuses while a server uses DATA_DIR; keeps
// the replaced database beside it; brings the restored one up to the current schema.
// restore ARCHIVE (a .tar.gz of `backup --archive` or the schedule): fills an empty data directory
// or an empty PostgreSQL database, and the image store, from it (server/backups/backups.restore.ts).
import { closeSync, copyFileSync, existsSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { databasePath, migrateToLatest, openDatabase } from '../../server/db.ts';
import { foldWal, integrityOf, isBeatnikDatabase } from '../../server/sqlite/sqlite.files.ts';
import { runningServerPid } from '../../server/maintenance/pidfile.ts';
import { postgresRestoreAdvice } from '../../server/postgres/postgres.admin.ts';
import { ArchiveError, restoreArchive } from '../../server/backups/backups.restore.ts';
import type { Config } from '../../server/config.ts';
import { createImageStore } from '../../server/images/open-store.ts';
import { CommandFailure, adminLog, type Command, type Output } from './cli.ts';

export const restoreCommand: Command<{ file: string }> = {
  name: 'restore',
  usage: 'restore FILE',
  summary: 'Restore a backup archive into an empty site, or replace the database with a "backup" copy.',
  details: [
    'An archive (.tar.gz, from `backup --archive` or BACKUP_HOURS) fills an empty data directory,',
    'or with DATABASE_URL an empty PostgreSQL database, and the image store (DATA_DIR/uploads or',
    'the S3 bucket); it refuses a target that holds data, and checks every table\'s count against',
    'the archive\'s manifest. A SQLite archive restores into PostgreSQL too.',
    'A database file (.db, from `backup FILE`) replaces the SQLite database:',
    'Refuses while a server is running on DATA_DIR. The current database is kept as',
    'beatnik.db.before-restore-<time>. Migrations run on the restored copy.',
    'A pg_dump file restores with pg_restore instead (docs/scaling.md).',
  ],
  example: 'npm run admin -- restore /backups/beatnik-20261121-030000.tar.gz',
  positionals: ['FILE'],
  parse: ({ positionals }) => ({ file: path.resolve(positionals[0]!) }),
  async runOffline(config, { file }, out) {
    if (/\.(tar\.gz|tgz)$/.test(file) || isGzip(file)) return restoreFromArchive(config, file, out);
    if (config.databaseUrl) throw new CommandFailure(postgresRestoreAdvice(config.databaseUrl));
    const pid = runningServerPid(config.dataDir);
    if (pid !== undefined) throw new CommandFailure(`a server (pid ${pid}) is using ${config.dataDir}: stop it first`);
    if (!existsSync(file)) throw new CommandFailure(`no such file: ${file}`);
    if (!isBeatnikDatabase(file)) throw new CommandFailure(`${file} is not a Beatnik database`);
    const integrity = integrityOf(file);
    if (integrity !== 'ok') throw new CommandFailure(`${file} failed integrity_check: ${integrity}`);

    const target = databasePath(config.dataDir);
    if (existsSync(target)) {
      // Fold the WAL into the old file before setting it aside, so the kept copy is whole.
      const db = openDatabase(target);
      await foldWal(db);
      await db.destroy();
      const kept = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(target, kept);
      out.line(`Kept the previous database as ${kept}`);
    }
    for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true });
    copyFileSync(file, target);
    const db = openDatabase(target);
    try {
      const applied = await migrateToLatest(db);
      out.line(`Restored ${file} to ${target}${applied.length ? ` (migrated: ${applied.join(', ')})` : ''}`);
    } finally {
      await db.destroy();
    }
  },
};

/** Whether the file starts as gzip does (an archive) rather than as a SQLite file. */
function isGzip(file: string): boolean {
  if (!existsSync(file)) return false;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

async function restoreFromArchive(config: Config, file: string, out: Output): Promise<void> {
  const log = adminLog(config);
  const images = await createImageStore(config, log);
  await images.check();
  let restored;
  try {
    restored = await restoreArchive(config, file, images, log);
  } catch (err) {
    if (err instanceof ArchiveError) throw new CommandFailure(err.message);
    throw new CommandFailure(`restore failed: ${(err as Error).message}`);
  }
  const { manifest } = restored;
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  out.line(`Restored ${file} (${manifest.dialect}, made ${manifest.created_at}) into ${restored.target}`
    + `${restored.migrated.length ? ` (migrated: ${restored.migrated.join(', ')})` : ''}`);
  out.line(`Checked: ${rows} rows in ${Object.keys(manifest.tables).length} tables as the manifest counts them; `
    + `${restored.images} images in ${images.location}`);
  if (restored.secret) {
    out.line(`The site's JWT secret is back in ${config.dataDir}/jwt-secret${process.env.JWT_SECRET ? ' (JWT_SECRET, which is set, still wins)' : ''}`);
  }
}
