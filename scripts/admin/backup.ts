// backup FILE: a consistent copy of the database while the server keeps serving, checked with
// integrity_check. Uploaded images live beside it in DATA_DIR/uploads: copy that folder too.
import path from 'node:path';
import { postgresBackupAdvice } from '../../server/postgres/postgres.admin.ts';
import { backupDatabase } from '../../server/sqlite/sqlite.files.ts';
import { CommandFailure, type Command } from './cli.ts';

export const backupCommand: Command<{ file: string }> = {
  name: 'backup',
  usage: 'backup FILE',
  summary: 'Write a consistent copy of the database to FILE (safe while the server runs).',
  details: [
    'The copy is compacted and verified with SQLite\'s integrity_check. FILE must not exist.',
    'Images are files in DATA_DIR/uploads: back that folder up as well (docs/operations.md).',
    'On PostgreSQL (DATABASE_URL), use pg_dump instead (docs/scaling.md).',
  ],
  example: 'npm run admin -- backup /backups/beatnik-2026-11-21.db',
  positionals: ['FILE'],
  parse: ({ positionals }) => ({ file: path.resolve(positionals[0]!) }),
  async run(ctx, { file }, out) {
    if (ctx.config.databaseUrl) throw new CommandFailure(postgresBackupAdvice(ctx.config.databaseUrl));
    let result;
    try {
      result = await backupDatabase(ctx.db, file);
    } catch (err) {
      throw new CommandFailure(`backup failed: ${(err as Error).message}`);
    }
    if (result.integrity !== 'ok') throw new CommandFailure(`the backup at ${file} failed integrity_check: ${result.integrity}`);
    out.line(`Backed up to ${file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, integrity ok)`);
  },
};
