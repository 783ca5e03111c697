// npm run seed as an operator runs it: the counts it prints are what the database holds, every
// counter agrees with the rows it counts, the same --seed makes the same data, and a seeded
// database is never overwritten without --reset.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../../server/schema.ts';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { uploadsDir } from '../../server/uploads.ts';
import { openDataDirDatabase, sqlNumber, sqlRows } from '../helpers.ts';
import { runScript, type Run } from './cli-helpers.ts';
import { onPostgres } from '../postgres-databases.ts';

const PLAN = ['--users', '40', '--posts', '150', '--ratings', '1500', '--comments', '600', '--follows', '120', '--seed', '7'];

/** Everything the seed decides, leaving out wall-clock times, salted hashes and random file names. */
const FINGERPRINT = [
  'SELECT id, username, email, bio, level, mojo, posts_count, followers_count, following_count, received_ratings_sum, last_login IS NULL AS never FROM users ORDER BY id',
  'SELECT id, author_id, title, content, image IS NULL AS plain, hashtags, archived, visits, ratings_count, ratings_sum, average_rating, comments_count FROM posts ORDER BY id',
  'SELECT tag, post_id FROM post_hashtags ORDER BY post_id, tag',
  'SELECT tag, posts_count FROM hashtags ORDER BY tag',
  'SELECT post_id, user_id, rating FROM ratings ORDER BY post_id, user_id',
  'SELECT id, post_id, author_id, content FROM comments ORDER BY id',
  'SELECT id, user_id, message, read, created_by_id, created_by, post_id, post_title FROM notifications ORDER BY id',
  'SELECT follower_id, followee_id FROM follows ORDER BY follower_id, followee_id',
];

async function fingerprint(db: DB): Promise<unknown[][]> {
  return Promise.all(FINGERPRINT.map((query) => sqlRows(db, query)));
}

describe('npm run seed', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-seed-'));
    dirs.push(dir);
    return dir;
  };
  let dataDir: string;
  let run: Run;
  let db: DB;
  before(async () => {
    dataDir = scratch();
    run = await runScript('scripts/seed.ts', dataDir, PLAN);
    db = await openDataDirDatabase(dataDir);
  });
  after(async () => {
    await db?.destroy();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('prints what the database holds', async () => {
    assert.equal(run.code, 0, run.stderr);
    const printed = /: (\d+) users, (\d+) articles, (\d+) ratings, (\d+) comments, (\d+) follows, (\d+) notifications; (\d+) ranked\./.exec(run.stdout);
    assert.ok(printed, run.stdout);
    const [users, posts, ratings, comments, follows, notifications, ranked] = printed.slice(1).map(Number);
    assert.equal(users, 40);
    assert.equal(posts, 150);
    assert.equal(comments, 600);
    // Readers drawn twice for one article keep one rating; pairs drawn twice keep one follow.
    assert.ok(ratings! > 0 && ratings! <= 1500, `${ratings} ratings`);
    assert.ok(follows! > 0 && follows! <= 120, `${follows} follows`);
    assert.ok(notifications! > 0);
    for (const [table, count] of [['users', users], ['posts', posts], ['ratings', ratings], ['comments', comments],
      ['follows', follows], ['notifications', notifications], ['post_ranks', ranked]] as const) {
      assert.equal(await sqlNumber(db, `SELECT count(*) FROM ${table}`), count, table);
    }
    assert.equal(await sqlNumber(db, `SELECT count(*) FROM users WHERE level = 'admin' AND username = 'admin'`), 1);
    assert.equal(await sqlNumber(db, 'SELECT count(*) FROM post_ranks'), await sqlNumber(db, 'SELECT count(*) FROM posts WHERE archived = 0'));
  });

  test('every counter agrees with the rows it counts', async () => {
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await findCounterDrift(db), []);
    // Not all zero either: the recount ran.
    assert.ok(await sqlNumber(db, 'SELECT count(*) FROM users WHERE mojo > 0 AND posts_count > 0') > 0);
    assert.ok(await sqlNumber(db, 'SELECT count(*) FROM posts WHERE ratings_count > 0 AND comments_count > 0') > 0);
  });

  test('every reference points at a row', { skip: onPostgres && 'PostgreSQL checks each reference as the row goes in' }, async () => {
    // The bulk load does not look references up row by row (bulkLoadMode), so check them all here.
    assert.deepEqual(await sqlRows(db, 'PRAGMA foreign_key_check'), []);
  });

  test('every article picture is a file in uploads', async () => {
    const images = await sqlRows<{ image: string }>(db, 'SELECT image FROM posts WHERE image IS NOT NULL');
    assert.ok(images.length > 0, 'the default plan gives some articles a picture');
    for (const { image } of images) assert.ok(existsSync(path.join(uploadsDir(dataDir), image)), image);
  });

  test('the same --seed makes the same data, another seed other data', async () => {
    const again = scratch();
    const other = scratch();
    const [same, different] = await Promise.all([
      runScript('scripts/seed.ts', again, PLAN),
      runScript('scripts/seed.ts', other, [...PLAN.slice(0, -1), '8']),
    ]);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(different.code, 0, different.stderr);
    const [sameDb, otherDb] = [await openDataDirDatabase(again), await openDataDirDatabase(other)];
    try {
      const expected = await fingerprint(db);
      assert.deepEqual(await fingerprint(sameDb), expected);
      assert.notDeepEqual(await fingerprint(otherDb), expected);
    } finally {
      await Promise.all([sameDb.destroy(), otherDb.destroy()]);
    }
  });

  test('a seeded database is kept unless --reset is given', async () => {
    const refused = await runScript('scripts/seed.ts', dataDir, [...PLAN, '--images', '0']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /already has 40 users; add --reset to replace it/);
    assert.equal(await sqlNumber(db, 'SELECT count(*) FROM posts'), 150);
  });
});
