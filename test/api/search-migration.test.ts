// Migration 0006 builds the search index of the posts a site already has, on either database:
// each active post's words, none for an archived one, and an index that answers at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, Migrator } from 'kysely';
import { migrationProvider } from '../../migrations/index.ts';
import { dialectOf, migrateToLatest } from '../../server/db.ts';
import { freshMigratedDatabase } from '../migration-databases.ts';
import { findMatches, findSearchIndexDrift } from '../../server/search-index/search-index.service.ts';
import { searchTerms } from '../../shared/search-text.ts';

test('0006 indexes the active posts already there, and down removes the index', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const migrator = new Migrator({ db, provider: migrationProvider(dialectOf(db)) });
    assert.equal((await migrator.migrateTo('0005_shared_counters')).error, undefined);
    const now = new Date().toISOString();
    const [user] = await db.insertInto('users').values({
      username: 'Zoë_Writer', username_key: 'zoë_writer', email: 'zoe@example.com', password_hash: 'x', created_at: now,
    }).returning('id').execute();
    const post = (title: string, archived: number, hashtags: string[]) => ({
      author_id: user!.id, title, content: `Words about ${title}, and nothing else.`, hashtags: JSON.stringify(hashtags),
      archived, created_at: now, updated_at: now,
    });
    // The posts table as 0005 left it (no content_html yet): not the schema's type of today.
    const ids = (await (db as Kysely<any>).insertInto('posts').values([
      post('Crème brûlée at the Café', 0, ['desserts']),
      post('An archived café story', 1, ['cafe']),
      post('Jazz at midnight', 0, ['small-press']),
    ]).returning('id').execute()).map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b);

    assert.equal((await migrator.migrateTo('0006_search_index')).error, undefined);
    // Each entry holds the words shared/search-text.ts makes of its post (the drift check below
    // compares them); an archived post has none.
    const indexed = await db.selectFrom('post_search').select('post_id').orderBy('post_id').execute();
    assert.deepEqual(indexed.map((row) => row.post_id), [ids[0], ids[2]]);
    // The server's code reads the schema as the later migrations leave it.
    await migrateToLatest(db);
    const page = { skip: 0, limit: 20 };
    assert.deepEqual(await findMatches(db, searchTerms('CAFE'), page), { ids: [ids[0]], total: 1 });
    assert.deepEqual(await findMatches(db, searchTerms('zoe writ'), page), { ids: [ids[2], ids[0]], total: 2 });
    assert.deepEqual(await findSearchIndexDrift(db), []);

    assert.equal((await migrator.migrateTo('0005_shared_counters')).error, undefined);
    const later = Object.keys(await migrationProvider(dialectOf(db)).getMigrations()).filter((name) => name > '0005_shared_counters');
    assert.deepEqual(await migrateToLatest(db), later, 'down leaves nothing behind that stops it running again');
    assert.equal(later[0], '0006_search_index');
  } finally {
    await drop();
  }
});

test('the index check (check-counters) names an entry missing, stale or left behind', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const now = new Date().toISOString();
    const [user] = await db.insertInto('users').values({
      username: 'checker', username_key: 'checker', email: 'check@example.com', password_hash: 'x', created_at: now,
    }).returning('id').execute();
    const post = {
      author_id: user!.id, content: 'Some words.', content_html: '<p>Some words.</p>\n', reading_minutes: 1,
      hashtags: '["notes"]', created_at: now, updated_at: now,
    };
    const ids = (await db.insertInto('posts').values([
      { ...post, title: 'First post here', archived: 0 }, { ...post, title: 'Second post here', archived: 0 },
      { ...post, title: 'Third post here', archived: 1 },
    ]).returning('id').execute()).map((row) => row.id).sort((a, b) => a - b);
    const [first, second, archived] = ids as [number, number, number];
    assert.deepEqual(await findSearchIndexDrift(db), [`post ${first} search index: missing`, `post ${second} search index: missing`]);
    await db.insertInto('post_search').values([
      { post_id: first, title: 'first post here', words: 'first post here some words notes checker' },
      { post_id: second, title: 'second post', words: 'second post here some words notes checker' },
      { post_id: archived, title: 'third post here', words: 'third post here some words notes checker' },
    ]).execute();
    assert.deepEqual(await findSearchIndexDrift(db), [`post ${second} search index: stale`, `post ${archived} search index: indexed but not active`]);
  } finally {
    await drop();
  }
});
