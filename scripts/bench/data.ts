// The bench's databases: seeded once (or again with --reseed) and brought up to date before any
// run is timed, then read for what the load needs: articles to ask for, sessions to rate with,
// the profile to render, and the visits counted so far.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { signAccessToken } from '../../server/auth/tokens.ts';
import type { Config } from '../../server/config.ts';
import { migrateToLatest, openDatabase } from '../../server/db.ts';
import type { DB } from '../../server/schema.ts';

/** How many of each a bench database holds (scripts/seed.ts's flags). */
export type SeedSize = { posts: number } & Record<string, number>;

/** Opens a data directory's database for one look, through Kysely as the server does. */
export async function withDatabase<T>(dataDir: string, look: (db: DB) => Promise<T>): Promise<T> {
  const db = openDatabase(path.join(dataDir, 'beatnik.db'));
  try {
    return await look(db);
  } finally {
    await db.destroy();
  }
}

/** Seeds `dataDir` unless it holds (nearly) `size.posts` articles already, or `reseed` says. */
export async function ensureData(dataDir: string, size: SeedSize, reseed: boolean): Promise<void> {
  if (!reseed && existsSync(path.join(dataDir, 'beatnik.db'))) {
    const posts = await withDatabase(dataDir, async (db) => {
      // A database seeded by an older version is brought up to date here, before any server's
      // start is timed (0006 indexes every article for search: a minute or two at a million).
      const applied = await migrateToLatest(db);
      if (applied.length > 0) console.log(`Migrated ${dataDir}: ${applied.join(', ')}`);
      return Number((await db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    });
    if (posts >= size.posts * 0.95) return;
  }
  console.log(`Seeding ${dataDir} …`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--data-dir', dataDir, '--reset',
    ...Object.entries(size).flatMap(([key, value]) => [`--${key}`, String(value)])], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('seeding failed');
}

/** The data directory's signing secret: sessions signed with it work on any server given it. */
export function jwtSecret(dataDir: string): string {
  return readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
}

/** Sessions for seeded users, signed with the data directory's secret (logging in 200 users
 * would spend most of a minute in argon2, which is not what is measured here). */
export async function tokens(dataDir: string, count: number): Promise<string[]> {
  const users = (await withDatabase(dataDir, (db) => tokenUsers(db).execute())).slice(0, count);
  const config = { jwtSecret: jwtSecret(dataDir), tokenTtlSeconds: 3600 } as Config;
  return users.map((user) => signAccessToken(config, user));
}

const tokenUsers = (db: DB) => db.selectFrom('users').select(['id', 'token_version'])
  .where('id', '>', 1).where('banned_at', 'is', null).orderBy('id').limit(200);

/** Active articles (archived ones answer 404 by design), none by a user whose token rates them. */
export function activePostIds(dataDir: string): Promise<number[]> {
  return withDatabase(dataDir, async (db) => (await db.selectFrom('posts').select('id').where('archived', '=', 0)
    .where('author_id', 'not in', db.selectFrom(tokenUsers(db).as('raters')).select('raters.id'))
    .execute()).map((row) => row.id));
}

/** The author with the most articles: the profile page the bench renders. */
export function busiestAuthor(dataDir: string): Promise<string> {
  return withDatabase(dataDir, async (db) => (await db.selectFrom('users').select('username').orderBy('posts_count', 'desc').limit(1)
    .executeTakeFirstOrThrow()).username);
}

/** The visits every article has counted so far. */
export async function countedVisits(db: DB): Promise<number> {
  return Number((await db.selectFrom('posts').select((eb) => eb.fn.sum<number>('visits').as('n')).executeTakeFirstOrThrow()).n);
}
