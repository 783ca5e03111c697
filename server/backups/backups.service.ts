// Backups (DESIGN.md, Running a community): one archive of the database and the images, made on a
// schedule or by the CLI, copied to the S3 bucket under backups/ when S3 is on, the newest
// BACKUP_KEEP kept, and every finished one recorded in the backups table.
//
// The schedule is a job: one 'backup' row waits for the next run (put there by the leader at start
// when none waits). When it runs it writes the archive, then in one transaction records it and
// queues the next run BACKUP_HOURS later; a backup that fails throws, and the runner tries the
// same job again (a minute later, doubling), the schedule going on once one succeeds.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { databasePath } from '../db.ts';
import type { JobHandler } from '../jobs/jobs.runner.ts';
import { enqueueJob, listJobs } from '../jobs/jobs.service.ts';
import { MANIFEST_FILE, packArchive, SECRET_FILE, type Manifest } from './backups.archive.ts';
import { insertBackup, latestBackupFinish } from './backups.repo.ts';
import { stageDatabase, stageImages } from './backups.stage.ts';

export const BACKUP_JOB = 'backup';

/** beatnik-YYYYMMDD-HHMMSS.tar.gz, UTC: names sort as their times do. */
export const ARCHIVE_NAME = /^beatnik-\d{8}-\d{6}\.tar\.gz$/;

/** Leftovers of a backup that died (its staging folder, its .partial) are removed after a day. */
const LEFTOVER_MS = 86_400_000;

export function archiveName(at: Date): string {
  const [date, time] = at.toISOString().slice(0, 19).split('T') as [string, string];
  return `beatnik-${date.replace(/-/g, '')}-${time.replace(/:/g, '')}.tar.gz`;
}

export interface BackupMade {
  file: string;
  bytes: number;
  manifest: Manifest;
  inS3: boolean;
  startedAt: Date;
  finishedAt: Date;
}

/** When the last backup finished, or undefined before the first (/metrics' last-backup gauge). */
export async function lastBackupAt(ctx: Pick<AppContext, 'db'>): Promise<Date | undefined> {
  const at = await latestBackupFinish(ctx.db);
  return at === undefined ? undefined : new Date(at);
}

/** Writes one archive at `file` (which must not exist), staged in a folder beside it, and records it. */
export async function backUpTo(ctx: AppContext, file: string): Promise<BackupMade> {
  const made = await writeArchive(ctx, file);
  await recordBackup(ctx, made);
  return made;
}

/** Writes one archive at `file` (which must not exist), staged in a folder beside it; not recorded. */
export async function archiveTo(ctx: AppContext, file: string): Promise<BackupMade> {
  return writeArchive(ctx, file);
}

/** A finished archive in the backups table (what /metrics' last-backup time reads). */
export async function recordBackup(ctx: Pick<AppContext, 'db'>, made: BackupMade): Promise<void> {
  await insertBackup(ctx.db, recordOf(made));
}

/**
 * The scheduled backup: an archive in BACKUP_DIR, its copy in the bucket when S3 is on, the
 * archives past BACKUP_KEEP deleted, and (when `next` is given) the next run queued with its record.
 */
export async function backUpNow(ctx: AppContext, next?: Date): Promise<BackupMade> {
  const { dir } = ctx.config.backup;
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  const made = await writeArchive(ctx, path.join(dir, archiveName(new Date())));
  const shelf = ctx.images.archives;
  if (shelf) {
    try {
      await shelf.put(path.basename(made.file), made.file);
      made.inS3 = true;
    } catch (err) {
      // The archive is made and kept here; the next run copies its own.
      ctx.log.error({ err: (err as Error).message, archive: path.basename(made.file) }, `backup not copied to ${shelf.location}`);
    }
  }
  made.finishedAt = new Date();
  await ctx.db.transaction().execute(async (trx) => {
    await insertBackup(trx, recordOf(made));
    if (next) await enqueueJob(trx, { kind: BACKUP_JOB, payload: {}, runAt: next });
  });
  await applyRetention(ctx);
  ctx.log.info({
    archive: path.basename(made.file), bytes: made.bytes, s3: made.inS3,
    seconds: Number(((made.finishedAt.getTime() - made.startedAt.getTime()) / 1000).toFixed(1)),
  }, 'backup written');
  return made;
}

/** The 'backup' job: one backup now and the next run queued, unless BACKUP_HOURS has turned them off. */
export function runScheduledBackup(ctx: AppContext): JobHandler {
  return async () => {
    const { hours } = ctx.config.backup;
    if (hours === 0) return; // turned off since this run was queued: the schedule ends here
    try {
      await backUpNow(ctx, new Date(Date.now() + hours * 3_600_000));
    } catch (err) {
      throw new Error(`backup failed: ${(err as Error).message}`);
    }
  };
}

/** Puts the first run BACKUP_HOURS from now in the jobs table unless one waits (the leader, at start). */
export async function scheduleBackups(ctx: Pick<AppContext, 'db' | 'config'>, now = new Date()): Promise<void> {
  const { hours } = ctx.config.backup;
  if (hours === 0) return;
  await ctx.db.transaction().execute(async (trx) => {
    // One given up as failed leaves the schedule to a new run.
    if ((await listJobs(trx, [BACKUP_JOB], ['pending', 'running'])).length > 0) return;
    await enqueueJob(trx, { kind: BACKUP_JOB, payload: {}, runAt: new Date(now.getTime() + hours * 3_600_000) });
  });
}

async function writeArchive(ctx: AppContext, file: string): Promise<BackupMade> {
  const startedAt = new Date();
  if (existsSync(file)) throw new Error(`${file} already exists`);
  const staged = await mkdtemp(path.join(path.dirname(file), '.beatnik-staging-'));
  try {
    const database = await stageDatabase(ctx.db, databasePath(ctx.config.dataDir), staged);
    const manifest: Manifest = { ...database, images: await stageImages(ctx.images, staged) };
    await writeFile(path.join(staged, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    // The secret in use, when it is DATA_DIR's (one set by JWT_SECRET stays the operator's to keep).
    const secret = await readFile(path.join(ctx.config.dataDir, SECRET_FILE), 'utf8').catch(() => undefined);
    if (secret?.trim() === ctx.config.jwtSecret) await writeFile(path.join(staged, SECRET_FILE), secret, { mode: 0o600 });
    const bytes = await packArchive(staged, file);
    return { file, bytes, manifest, inS3: false, startedAt, finishedAt: new Date() };
  } finally {
    await rm(staged, { recursive: true, force: true, maxRetries: 3 });
  }
}

function recordOf(made: BackupMade) {
  return {
    archive: path.basename(made.file), bytes: made.bytes, in_s3: made.inS3 ? 1 : 0,
    started_at: made.startedAt.toISOString(), finished_at: made.finishedAt.toISOString(),
  };
}

/** The newest BACKUP_KEEP archives stay, in BACKUP_DIR and in the bucket; older ones go. */
export async function applyRetention(ctx: AppContext): Promise<void> {
  const { dir, keep } = ctx.config.backup;
  const local = (await readdir(dir)).filter((name) => ARCHIVE_NAME.test(name)).sort().reverse();
  for (const name of local.slice(keep)) await rm(path.join(dir, name), { force: true });
  const shelf = ctx.images.archives;
  if (!shelf) return;
  try {
    const remote = (await shelf.list()).filter((name) => ARCHIVE_NAME.test(name)).sort().reverse();
    for (const name of remote.slice(keep)) await shelf.remove(name);
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, `old backups could not be removed from ${shelf.location}; the next run tries again`);
  }
}

async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const leftover = name.startsWith('.beatnik-staging-') || (name.endsWith('.partial') && ARCHIVE_NAME.test(name.slice(0, -'.partial'.length)));
    if (!leftover) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > LEFTOVER_MS) await rm(file, { recursive: true, force: true });
  }
}
