// A full disk under SQLite (issue 27): the database can no longer grow, so every write that needs
// a new page fails with SQLITE_FULL. `PRAGMA max_page_count` at the current size on the server's
// own connection is SQLite's real full-database error path. A reader still gets the article
// (the visit that could not be recorded is logged once, as a full disk), and a write answers
// 503 saying the disk is full, never a 500 hiding it behind 'cannot rollback'.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DISK_FULL } from '../../server/errors.ts';
import { createUser, multipart, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { logSink } from '../log-sink.ts';
import { onPostgres } from '../postgres-databases.ts';
import { apiFrom } from './from-address.ts';
import { articleFields, createPost } from './factories.ts';

/** Readers tried at most before the database must be full. */
const MAX_READERS = 1500;

let server: TestServer;
let author: TestUser;
const sink = logSink();

before(async () => {
  if (onPostgres) return;
  server = await startTestServer({ env: { LOG_LEVEL: 'info' }, logTo: sink.stream });
  author = await createUser(server);
});
after(async () => { await server?.stop(); });

/** Fills the database to its limit: no page left for anything that needs a new one. */
async function fillDisk(): Promise<void> {
  await sqlRows(server.ctx.db, 'CREATE TABLE filler (bytes BLOB)');
  const pages = await sqlNumber(server.ctx.db, 'PRAGMA page_count');
  await sqlRows(server.ctx.db, `PRAGMA max_page_count = ${pages + 4}`);
  for (const size of [4000, 500, 50, 5]) {
    for (;;) {
      try {
        await sqlRows(server.ctx.db, 'INSERT INTO filler VALUES (randomblob(?))', size);
      } catch (err) {
        assert.equal((err as { code?: string }).code, 'SQLITE_FULL');
        break;
      }
    }
  }
}

test('a full disk: every reader gets the article, the lost visits are logged once as a full disk, writes answer 503', { skip: onPostgres && 'SQLite only' }, async (t) => {
  const post = await createPost(server, author);
  await fillDisk();
  // New readers, each from an address of its own, until one's visit finds no room (the pages
  // left have some space): every answer must be the article.
  const statuses: number[] = [];
  let counted = 0;
  for (let i = 0; i < MAX_READERS; i += 1) {
    const res = await apiFrom(`127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}`, server.url, 'GET', `/api/posts/${post.id}`);
    statuses.push(res.status);
    if (res.status !== 200) break;
    assert.equal(res.body.id, post.id);
    if (res.body.visits === counted) break; // this visit was not recorded
    counted = res.body.visits;
  }
  t.diagnostic(`answers ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}; ${counted} visits counted before the disk was full`);
  assert.deepEqual(statuses.filter((s) => s !== 200), []);
  assert.ok(statuses.length < MAX_READERS, 'the disk filled up');
  // More readers meanwhile: still the article, and still one line in the log.
  for (let i = 0; i < 5; i += 1) assert.equal((await apiFrom(`127.0.9.${2 + i}`, server.url, 'GET', `/api/posts/${post.id}`)).status, 200);
  const visits = await sqlNumber(server.ctx.db, 'SELECT visits FROM posts WHERE id = ?', post.id);
  assert.equal(visits, counted);
  const lost = sink.lines.filter((l) => l.msg === 'visits cannot be counted: the database cannot be written');
  assert.equal(lost.length, 1, 'one line, not one per reader');
  assert.match(String((lost[0]!.err as { message?: string }).message), /database or disk is full/);
  assert.deepEqual(sink.lines.filter((l) => JSON.stringify(l).includes('cannot rollback')), []);
  // A write that needs pages (an article longer than one): the 503 that says why, nothing written.
  const words = 'Words that take room on the page, and more of them. '.repeat(180);
  const form = multipart(articleFields({ content: words }));
  const write = await server.api('POST', '/api/posts', { token: author.token, body: form });
  assert.deepEqual([write.status, write.body], [503, { detail: DISK_FULL }]);
  assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', author.id), 1);
  // Room again: visits count again, and it says so.
  await sqlRows(server.ctx.db, 'DROP TABLE filler');
  const reader = await createUser(server);
  const read = await server.api('GET', `/api/posts/${post.id}`, { token: reader.token });
  assert.equal(read.status, 200);
  assert.equal(await sqlNumber(server.ctx.db, 'SELECT visits FROM posts WHERE id = ?', post.id), visits + 1);
});
