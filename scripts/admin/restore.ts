// restore FILE: replaces the database with a backup. Refuses while a server uses DATA_DIR; keeps
// the replaced database beside it; brings the restored one up to the current schema.
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { databasePath, migrateToLatest, openDatabase } from '../../server/db.ts';
import { foldWal, integrityOf, isBeatnikDatabase } from '../../server/sqlite/sqlite.files.ts';
import { runningServerPid } from '../../server/maintenance/pidfile.ts';
import { postgresRestoreAdvice } from '../../server/postgres/postgres.admin.ts';
import { CommandFailure, type Command } from './cli.ts';

export const restoreCommand: Command<{ file: string }> = {
  name: 'restore',
  usage: 'restore FILE',
  summary: 'Replace the database with a backup made by "backup" (stop the server first).',
  details: [
    'Refuses while a server is running on DATA_DIR. The current database is kept as',
    'beatnik.db.before-restore-<time>. Migrations run on the restored copy.',
    'On PostgreSQL (DATABASE_URL), use pg_restore instead (docs/scaling.md).',
  ],
  example: 'npm run admin -- restore /backups/beatnik-2026-11-21.db',
  positionals: ['FILE'],
  parse: ({ positionals }) => ({ file: path.resolve(positionals[0]!) }),
  async runOffline(config, { file }, out) {
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
