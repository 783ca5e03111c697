// npm run seed -- [--users N] [--posts N] [--ratings N] [--comments N] [--follows N] [--days N]
//                 [--images RATIO] [--seed N] [--data-dir DIR] [--reset]
// Fills a data directory (or, with DATABASE_URL, a PostgreSQL database) with realistic demo data,
// reproducible with --seed. Every account's
// password is "beatnik-demo"; the first account is the admin "admin" (admin@beatnik.example).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { hashPassword } from '../server/auth/passwords.ts';
import { ConfigError, loadConfig, prepareDataDir } from '../server/config.ts';
import { databasePath, dialectOf, migrateToLatest, openConfiguredDatabase } from '../server/db.ts';
import { openImageStore } from '../server/images/open-store.ts';
import { emptyEveryTable } from '../server/postgres/postgres.admin.ts';
import { vacuumAfterBulkLoad } from '../server/postgres/postgres.import.ts';
import { describeServer } from '../server/postgres/postgres.database.ts';
import { recomputeRanks } from '../server/ranks/ranks.service.ts';
import { foldWal } from '../server/sqlite/sqlite.files.ts';
import { analyze, bulkLoadMode } from '../server/sqlite/sqlite.maintenance.ts';
import { uploadsDir } from '../server/uploads.ts';
import { seededRandom } from './seed/corpus.ts';
import { recountEverything } from './seed/counters.ts';
import { generate, type Progress, type SeedPlan } from './seed/generate.ts';
import { imagePlacements, makeImagePool } from './seed/images.ts';

export const DEMO_PASSWORD = 'beatnik-demo';

const USAGE = `Usage: npm run seed -- [options]
  --users N       accounts to create (default 200)
  --posts N       articles (default 1000)
  --ratings N     ratings, spread with a heavy tail (default 10 per article)
  --comments N    comments (default 3 per article)
  --follows N     follows (default 5 per user)
  --days N        how far back the data reaches (default 365)
  --images RATIO  share of articles with a picture, 0 to 1 (default 0.3)
  --seed N        random seed: the same seed makes the same data (default 1)
  --data-dir DIR  where to write (default DATA_DIR or ./data; with DATABASE_URL set, the
                  articles go to that PostgreSQL database and the pictures to DIR/uploads or S3)
  --reset         delete the existing database (PostgreSQL: empty every table) and uploads
                  first (an S3 bucket is left alone)
Every account's password is "${DEMO_PASSWORD}"; the admin account is admin@beatnik.example.`;

function fail(message: string): never {
  console.error(`seed: ${message}`);
  process.exit(2);
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

function progressBar(): Progress {
  const interactive = process.stderr.isTTY;
  let last = '';
  return (label, done, total) => {
    const share = total === 0 ? 1 : done / total;
    const filled = Math.round(share * 30);
    const line = `${label.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${String(Math.round(share * 100)).padStart(3)}% ${done}/${total}`;
    if (interactive) process.stderr.write(`\r${line}${done >= total ? '\n' : ''}`);
    else if (done >= total || line.slice(0, 20) !== last.slice(0, 20)) process.stderr.write(`${line}\n`);
    last = line;
  };
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        users: { type: 'string' }, posts: { type: 'string' }, ratings: { type: 'string' },
        comments: { type: 'string' }, follows: { type: 'string' }, days: { type: 'string' },
        images: { type: 'string' }, seed: { type: 'string' }, 'data-dir': { type: 'string' },
        reset: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const users = Math.max(2, wholeNumber('users', args.users, 200));
  const posts = wholeNumber('posts', args.posts, 1000);
  const plan: SeedPlan = {
    users, posts,
    ratings: wholeNumber('ratings', args.ratings, posts * 10),
    comments: wholeNumber('comments', args.comments, posts * 3),
    follows: wholeNumber('follows', args.follows, users * 5),
    days: Math.max(1, wholeNumber('days', args.days, 365)),
    imageRatio: args.images === undefined ? 0.3 : Number(args.images),
  };
  if (!(plan.imageRatio >= 0 && plan.imageRatio <= 1)) fail('--images must be a number from 0 to 1');
  const seed = wholeNumber('seed', args.seed, 1);

  let config;
  try {
    config = loadConfig(process.env, args['data-dir'] ? { dataDir: path.resolve(args['data-dir']) } : {});
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const file = databasePath(config.dataDir);
  // What the seed fills: the SQLite file, or the PostgreSQL database DATABASE_URL names.
  const target = config.databaseUrl ? `PostgreSQL ${describeServer(config.databaseUrl)}` : file;
  if (args.reset) {
    if (!config.databaseUrl) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    if (config.s3) process.stderr.write(`seed: the old images stay in the S3 bucket "${config.s3.bucket}"\n`);
    else rmSync(uploadsDir(config.dataDir), { recursive: true, force: true });
  }
  let images;
  try {
    config = prepareDataDir(config);
    images = await openImageStore(config, pino({ level: 'warn', base: undefined }, pino.destination(2)));
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  // Beside the uploads, so that the disk store's hard links work; gone once the seed is done.
  const poolDir = mkdtempSync(path.join(config.dataDir, '.seed-pool-'));
  let db;
  try {
    db = await openConfiguredDatabase(config);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const sqlite = dialectOf(db) === 'sqlite';
  const count = async (table: 'users' | 'posts' | 'ratings' | 'comments' | 'follows' | 'notifications') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  try {
    await migrateToLatest(db);
    if (args.reset && !sqlite) await emptyEveryTable(db);
    const existing = await count('users');
    if (existing > 0) fail(`${target} already has ${existing} users; add --reset to replace it`);

    const started = performance.now();
    const rnd = seededRandom(seed);
    // Demo accounts may use argon2's cheaper settings: they are throwaway by design.
    const passwordHash = await hashPassword(config, DEMO_PASSWORD);
    const placements = imagePlacements(plan.imageRatio > 0 && plan.posts > 0 ? await makeImagePool(poolDir, rnd, 24) : []);
    // Bulk load: durability per batch is not needed, the whole run is repeatable.
    if (sqlite) await bulkLoadMode(db, true);
    await generate(db, rnd, plan, passwordHash, placements, progressBar());
    await placements.storeAll(images, progressBar());
    process.stderr.write('counters  recomputing from the base tables…\n');
    await recountEverything(db);
    const ranks = await recomputeRanks(db);
    if (sqlite) {
      await bulkLoadMode(db, false);
      await analyze(db);
      await foldWal(db);
    } else {
      await vacuumAfterBulkLoad(db);
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Seeded ${target} in ${seconds} s (seed ${seed}): ${await count('users')} users, ${await count('posts')} articles, `
      + `${await count('ratings')} ratings, ${await count('comments')} comments, ${await count('follows')} follows, `
      + `${await count('notifications')} notifications; ${ranks.posts} ranked.`);
    console.log(`Sign in as admin@beatnik.example (or any <username>@beatnik.example) with "${DEMO_PASSWORD}".`);
  } finally {
    await db.destroy();
    rmSync(poolDir, { recursive: true, force: true });
  }
  if (!config.databaseUrl && !existsSync(file)) fail('the database was not written');
}

main().catch((err) => {
  console.error('seed: failed:', err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
