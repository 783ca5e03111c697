// backup FILE: a consistent copy of the database while the server keeps serving, checked with
// integrity_check. Images are not in it: they live in DATA_DIR/uploads or the S3 bucket.
// backup --archive FILE: one archive of the database and the images, as the scheduled backups make
// (server/backups/), on either database.
import path from 'node:path';
import { archiveTo, recordBackup } from '../../server/backups/backups.service.ts';
import { postgresBackupAdvice } from '../../server/postgres/postgres.admin.ts';
import { backupDatabase } from '../../server/sqlite/sqlite.files.ts';
import { CommandFailure, withBusyRetry, type Command } from './cli.ts';

export const backupCommand: Command<{ file: string; archive: boolean }> = {
  name: 'backup',
  usage: 'backup [--archive] FILE',
  summary: 'Write a backup to FILE: with --archive, the database and the images (safe while the server runs).',
  details: [
    '--archive writes one .tar.gz of the database and every image, as the scheduled backups do',
    '(BACKUP_HOURS), on SQLite or PostgreSQL; `restore FILE` fills an empty site from it.',
    'Without --archive (SQLite only): the database alone, compacted and verified with',
    'SQLite\'s integrity_check; images are not in it. FILE must not exist.',
  ],
  example: 'npm run admin -- backup --archive /backups/beatnik-2026-11-21.tar.gz',
  options: { archive: { type: 'boolean' } },
  positionals: ['FILE'],
  parse: ({ positionals, values }) => ({ file: path.resolve(positionals[0]!), archive: values.archive === true }),
  async run(ctx, { file, archive }, out) {
    if (archive) {
      let made;
      try {
        made = await archiveTo(ctx, file);
        // The record of it is written while the server may be writing too.
        await withBusyRetry(() => recordBackup(ctx, made!));
      } catch (err) {
        throw new CommandFailure(`backup failed: ${(err as Error).message}`);
      }
      const tables = Object.values(made.manifest.tables).reduce((sum, n) => sum + n, 0);
      out.line(`Backed up to ${file} (${(made.bytes / 1024 / 1024).toFixed(1)} MB: ${made.manifest.dialect} database, `
        + `${tables} rows in ${Object.keys(made.manifest.tables).length} tables, ${made.manifest.images} images)`);
      return;
    }
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
