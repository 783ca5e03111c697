// migrate-to-postgres --to URL: moves a site from its SQLite file to PostgreSQL (docs/scaling.md,
// Moving from SQLite to PostgreSQL). Copies DATA_DIR's database, whatever DATABASE_URL says, into
// an empty PostgreSQL database, the images into the S3 bucket when S3_ variables are set, and
// checks every table's count and every counter afterwards.
import { existsSync } from 'node:fs';
import { type Config, ConfigError, parseDatabaseUrl } from '../../server/config.ts';
import { databasePath, migrateToLatest, openDatabase } from '../../server/db.ts';
import type { DB } from '../../server/schema.ts';
import { copyUploads, listUploads } from '../../server/images/copy-uploads.ts';
import type { ImageStore } from '../../server/images/image-store.ts';
import { createImageStore } from '../../server/images/open-store.ts';
import { uploadsDir } from '../../server/uploads.ts';
import {
  COPY_ORDER, copyDatabase, targetProblem, verifyCopy, type CopyCheck, type CopyResult,
} from '../../server/maintenance/copy-database.ts';
import { runningServerPid } from '../../server/maintenance/pidfile.ts';
import { vacuumAfterBulkLoad } from '../../server/postgres/postgres.import.ts';
import { checkPostgres, describeServer, openPostgres } from '../../server/postgres/postgres.database.ts';
import { listSqliteTables } from '../../server/sqlite/sqlite.export.ts';
import { isBeatnikDatabase } from '../../server/sqlite/sqlite.files.ts';
import { CommandFailure, UsageError, adminLog, formatTable, requiredText, type Command, type Output } from './cli.ts';
import { progressLine } from './progress.ts';

export const migrateToPostgresCommand: Command<{ to: string }> = {
  name: 'migrate-to-postgres',
  usage: 'migrate-to-postgres --to postgres://USER:PASSWORD@HOST:5432/DATABASE',
  summary: 'Copy the SQLite database (and images, to S3 when set) into an empty PostgreSQL database.',
  details: [
    'Stop the server first: the command refuses while one runs on DATA_DIR. It reads',
    'DATA_DIR/beatnik.db whatever DATABASE_URL says, and refuses a database that has rows or',
    'tables that are not Beatnik\'s. Ids, counters, bans and notifications come as they are; new',
    'ids continue after the largest ever used. With S3_ variables set, every file of',
    'DATA_DIR/uploads is copied into the bucket. Progress goes to stderr; at the end every',
    'table\'s count and every counter are checked (exit 1 if any differs). Then start Beatnik',
    'with DATABASE_URL set to the same URL (docs/scaling.md).',
  ],
  example: 'npm run admin -- migrate-to-postgres --to postgres://beatnik:secret@db.example.org:5432/beatnik',
  options: { to: { type: 'string' } },
  parse({ values }) {
    const to = requiredText(values, 'to');
    try {
      parseDatabaseUrl(to);
    } catch (err) {
      if (err instanceof ConfigError) {
        throw new UsageError('--to must be a PostgreSQL URL such as postgres://user:password@host:5432/beatnik');
      }
      throw err;
    }
    return { to };
  },
  async runOffline(config, { to }, out) {
    const started = performance.now();
    const file = sourceFile(config);
    const where = `PostgreSQL at ${describeServer(to)}`;
    const target = openPostgres(to, { poolSize: 1 });
    try {
      await checkPostgres(target, to, '--to');
      const problem = await targetProblem(target);
      if (problem) throw new CommandFailure(`${where} cannot receive the copy: ${problem}. Give an empty database`);
      const images = config.s3 ? await createImageStore(config, adminLog(config)) : undefined;
      await images?.check();

      const source = openDatabase(file);
      try {
        await prepareSource(source);
        if (images) await copyImages(config, images, out);
        else {
          out.line(`Images: nothing to copy, they stay in ${uploadsDir(config.dataDir)} (no S3_ variables set): `
            + 'start the server with the same DATA_DIR');
        }
        const nextIds = await copyRows(source, target, where);
        const check = await verifyCopy(source, target);
        out.line(`Copied ${file} to ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        report(check, out);
        out.line(`Next ids: ${Object.entries(nextIds).map(([table, id]) => `${table} ${id}`).join(', ')}`);
        if (!checkPassed(check)) {
          throw new CommandFailure(`the copy in ${where} differs from ${file} (above); drop that database and run this again`);
        }
        out.line(images
          // Instances elsewhere have DATA_DIRs of their own: the secret is theirs to be given.
          ? 'Start Beatnik with DATABASE_URL set to that URL, the same S3_ variables, and the same DATA_DIR '
            + '(it holds the JWT secret) or JWT_SECRET set to the contents of DATA_DIR/jwt-secret.'
          : 'Start Beatnik with DATABASE_URL set to that URL and the same DATA_DIR (it holds the JWT secret).');
      } finally {
        await source.destroy();
      }
    } finally {
      await target.destroy();
    }
  },
};

/** DATA_DIR's database file, if it can be copied now: no server writing to it. */
function sourceFile(config: Config): string {
  const pid = runningServerPid(config.dataDir);
  if (pid !== undefined) {
    throw new CommandFailure(`a server (pid ${pid}) is using ${config.dataDir}: stop it first, so that the copy is whole`);
  }
  const file = databasePath(config.dataDir);
  if (!existsSync(file) || !isBeatnikDatabase(file)) throw new CommandFailure(`no Beatnik database at ${file} (set DATA_DIR)`);
  return file;
}

/** Brings the file to the current schema, and makes sure every table in it is one the copy knows. */
async function prepareSource(source: DB): Promise<void> {
  const applied = await migrateToLatest(source);
  if (applied.length > 0) process.stderr.write(`SQLite database migrated first: ${applied.join(', ')}\n`);
  const known = new Set<string>(COPY_ORDER);
  const unknown = (await listSqliteTables(source)).filter((table) => !known.has(table));
  if (unknown.length > 0) throw new CommandFailure(`the SQLite database has tables this command does not copy: ${unknown.join(', ')}`);
}

/** Migrates the target and copies every row into it, showing progress; returns the next ids. */
async function copyRows(source: DB, target: DB, where: string): Promise<CopyResult['nextIds']> {
  try {
    await migrateToLatest(target);
  } catch (err) {
    throw new CommandFailure(`could not create Beatnik's tables in ${where}: ${(err as Error).message}`);
  }
  const show = progressLine();
  let copied;
  try {
    copied = await copyDatabase(source, target, {
      rows: (table, done, total) => show(`${table.padEnd(15)} ${done}/${total} rows`, done === total),
      step: (text) => show(text, true),
    });
  } catch (err) {
    throw new CommandFailure(`the copy failed and was undone, ${where} has no rows: ${(err as Error).message}`);
  }
  show('checking: counting every table on both sides and every counter on PostgreSQL…', true);
  await vacuumAfterBulkLoad(target);
  return copied.nextIds;
}

async function copyImages(config: Config, images: ImageStore, out: Output): Promise<void> {
  const names = await listUploads(config.dataDir);
  const show = progressLine();
  try {
    await copyUploads(config.dataDir, names, images,
      (done, total) => show(`${'images'.padEnd(15)} ${done}/${total} files`, done === total));
  } catch (err) {
    throw new CommandFailure(`could not copy the images to ${images.location}: ${(err as Error).message}`);
  }
  out.line(`Images: copied ${names.length} files from ${uploadsDir(config.dataDir)} to ${images.location}`);
}

function checkPassed(check: CopyCheck): boolean {
  return check.drift.length === 0 && check.counts.every((c) => c.source === c.target);
}

function report(check: CopyCheck, out: Output): void {
  const rows = check.counts.map((c) => [c.table, String(c.source), String(c.target), c.source === c.target ? 'ok' : 'DIFFERENT']);
  for (const line of formatTable(['table', 'SQLite', 'PostgreSQL', 'check'], rows)) out.line(line);
  if (check.drift.length === 0) {
    out.line('Counters: every counter agrees with the base tables on PostgreSQL');
    return;
  }
  for (const line of check.drift.slice(0, 20)) out.line(`  ${line}`);
  out.line(`Counters: ${check.drift.length} disagree with the base tables on PostgreSQL`
    + ' (npm run admin -- check-counters on the SQLite database shows whether they did there)');
}
