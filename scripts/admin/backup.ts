// backup FILE: a consistent copy of the database while the server keeps serving, checked with
// integrity_check. Images are not in it: they live in DATA_DIR/uploads or the S3 bucket.
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
    'Images are not in it: back up DATA_DIR/uploads, or the S3 bucket when S3_ variables',
    'are set, as well (docs/operations.md).',
    'On PostgreSQL (DATABASE_URL), use pg_dump instead (docs/scaling.md).',
  ],
  example: 'npm run admin -- backup /backups/beatnik-2026-11-21.db',
  positionals: ['FILE'],
  parse: ({ positionals }) => ({ file: path.resolve(positionals[0]!) }),
  async run(ctx, { file }, out) {
    if (ctx.config.databaseUrl) {
      throw new CommandFailure(postgresBackupAdvice(ctx.config.databaseUrl, { location: ctx.images.location, bucket: ctx.config.s3 !== undefined }));
    }
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
