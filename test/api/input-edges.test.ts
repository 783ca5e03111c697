// Edges of input (issue 12, DESIGN.md "Edges"): undecodable paths, dotted usernames in page
// paths, look-alike and invisible usernames, control characters, Windows line endings, emails.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REFUSED_TEXT } from '../../server/refused-text.ts';
import { createPost } from './factories.ts';
import {
  createAdmin, createUser, multipart, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';

let server: TestServer;
let clientDir: string;
const INDEX = '<!doctype html><title>Beatnik</title><div id="root"></div>';

before(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'beatnik-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, 'assets/main-abc.js'), 'console.log(1)');
  writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ clientDir });
});

after(async () => {
  await server.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

/** A request with the path sent byte for byte (fetch would re-encode a malformed one). */
async function rawGet(urlPath: string): Promise<{ status: number; body: any }> {
  const { request } = await import('node:http');
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: urlPath, method: 'GET' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => {
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paths', () => {
  const malformed = [
    '/api/posts/%FF', '/%E0%A4%A', '/api/users/by-username/%FF', '/beatnik/%E0%A4%A', '/uploads/%FF',
    '/api/%FF/x', '/assets/%C0', '/post/%', '/api/posts/1/comments%ZZ', '/api/posts/%FF?skip=0',
  ];
  for (const urlPath of malformed) {
    test(`${urlPath} is a 400 with a detail`, async () => {
      const res = await rawGet(urlPath);
      assert.deepEqual([res.status, res.body], [400, { detail: 'The URL path has an invalid percent-encoding' }]);
    });
  }

  test('the server is unharmed after a burst of malformed paths', async () => {
    await Promise.all(malformed.map(rawGet));
    const health = await server.api('GET', '/api/health');
    assert.deepEqual([health.status, health.body], [200, { status: 'ok' }]);
  });

  test('a dotted last segment that is no file gets the app; only the asset folder holds files', async () => {
    for (const page of ['/beatnik/john.doe', '/beatnik/a.b.c', '/post/1.5', '/latest.json', '/anything.png']) {
      const res = await rawGet(page);
      assert.deepEqual([res.status, res.body], [200, INDEX], page);
    }
    assert.equal((await rawGet('/assets/main-abc.js')).status, 200);
    assert.equal((await rawGet('/favicon.svg')).status, 200);
    for (const missing of ['/assets/missing.js', '/assets/main-abc.css', '/assets/deep/x.woff2']) {
      assert.equal((await rawGet(missing)).status, 404, missing);
    }
  });
});

describe('usernames', () => {
  const CHARACTERS = 'Username can only contain letters, numbers, dots, hyphens and underscores';
  let owner: TestUser;

  before(async () => {
    owner = await createUser(server, { username: `john.doe${process.pid}` });
  });

  async function register(username: string) {
    return server.api('POST', '/api/auth/register', {
      json: { username, email: `r${Math.random().toString(36).slice(2)}@example.com`, password: 'password123' },
    });
  }

  test('look-alikes and scripts other than ASCII are refused with the rule', async () => {
    for (const name of [`p\u0430ypal${process.pid}`, `.dot${process.pid}`, `dash${process.pid}-`, `Jos\u00e9${process.pid}`]) {
      const res = await register(name);
      assert.deepEqual([res.status, res.body], [400, { detail: CHARACTERS }], JSON.stringify(name));
    }
  });

  test('a name differing only by case or . - _ is taken', async () => {
    for (const name of [`John_Doe${process.pid}`, `JOHNDOE${process.pid}`, `john-doe${process.pid}`, `j.o.h.n.doe${process.pid}`]) {
      const res = await register(name);
      assert.deepEqual([res.status, res.body], [409, { detail: 'Username is already taken' }], name);
    }
  });

  test('invisible and bidi characters are removed first, so they cannot make a new name', async () => {
    for (const name of [`john\u200B.doe${process.pid}`, `\u202Ejohn.doe${process.pid}`, `john.doe${process.pid}\u2066`]) {
      const res = await register(name);
      assert.deepEqual([res.status, res.body], [409, { detail: 'Username is already taken' }], JSON.stringify(name));
    }
    const clean = await register(`zero\u200Bwidth${process.pid}`);
    assert.equal(clean.status, 201);
    assert.equal(clean.body.username, `zerowidth${process.pid}`);
  });

  test('a dotted name opens as a page and through the API', async () => {
    const res = await server.api('GET', `/api/users/by-username/${owner.username}`);
    assert.deepEqual([res.status, res.body.id], [200, owner.id]);
    assert.equal((await rawGet(`/beatnik/${owner.username}`)).status, 200);
  });

  test('renaming to a look-alike of someone else is taken; to a look-alike of oneself is fine', async () => {
    const other = await createUser(server);
    const taken = await server.api('PUT', '/api/users/me', { token: other.token, json: { username: `JOHN_DOE${process.pid}` } });
    assert.deepEqual([taken.status, taken.body], [409, { detail: 'Username is already taken' }]);
    const own = await server.api('PUT', '/api/users/me', { token: owner.token, json: { username: `John_Doe${process.pid}` } });
    assert.deepEqual([own.status, own.body.username], [200, `John_Doe${process.pid}`]);
    const bad = await server.api('PUT', '/api/users/me', { token: other.token, json: { username: `Zo\u00eb${process.pid}` } });
    assert.deepEqual([bad.status, bad.body], [400, { detail: CHARACTERS }]);
  });

  test('a name chosen before the rule keeps working: sign in, open, edit the bio with the name unchanged', async () => {
    const legacy = await createUser(server);
    const oldName = `Ren\u00e9e_${process.pid}`;
    await server.ctx.db.updateTable('users').set({ username: oldName, username_key: oldName.toLowerCase() })
      .where('id', '=', legacy.id).execute();
    const page = await server.api('GET', `/api/users/by-username/${encodeURIComponent(oldName)}`);
    assert.deepEqual([page.status, page.body.id], [200, legacy.id]);
    const edit = await server.api('PUT', '/api/users/me', { token: legacy.token, json: { username: oldName, bio: 'still me' } });
    assert.deepEqual([edit.status, edit.body.username, edit.body.bio], [200, oldName, 'still me']);
  });
});

describe('text fields', () => {
  let author: TestUser;
  let reader: TestUser;

  before(async () => {
    author = await createUser(server);
    reader = await createUser(server);
  });

  // U+0000 is no longer among them: it is refused outright (test/api/refused-text.test.ts).
  const DIRT = '\u0001\u0007\u001B\u007F\u0085\u009F\u200B\u202E\u2066\uFEFF\u3164';

  test('control characters in a search are dropped, never an error; a NUL is refused', async () => {
    const post = await createPost(server, author, { title: 'Needle in the haystack' });
    for (const [urlPath, found] of [
      ['/api/authors?search=', (body: any) => body.authors.some((user: { id: number }) => user.id === author.id)],
      ['/api/hashtags?search=', (body: any) => Array.isArray(body)],
      ['/api/search?q=needle', (body: any) => body.posts.some((hit: { id: number }) => hit.id === post.id)],
    ] as const) {
      const res = await server.api('GET', `${urlPath}${encodeURIComponent(DIRT)}${urlPath.endsWith('=') ? author.username.slice(0, 4) : ''}`);
      assert.equal(res.status, 200, urlPath);
      assert.ok(found(res.body), urlPath);
      const nul = await server.api('GET', `${urlPath}%00`);
      assert.deepEqual([nul.status, nul.body], [400, { detail: REFUSED_TEXT }], urlPath);
    }
  });

  test('control and invisible characters are removed from titles, content, comments and bios', async () => {
    const post = await createPost(server, author, {
      title: `Night${DIRT} trains of the northern line`,
      content: `Start${DIRT} ${'of a long story about the sea and the harbour. '.repeat(4)}`,
      hashtags: [`ja${DIRT}zz`],
    });
    const stored = await server.ctx.db.selectFrom('posts').select(['title', 'content', 'hashtags'])
      .where('id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(stored.title, 'Night trains of the northern line');
    assert.ok(stored.content.startsWith('Start of a long story'), stored.content.slice(0, 40));
    assert.deepEqual(JSON.parse(stored.hashtags), ['jazz']);

    const comment = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: `Nice${DIRT} one` } });
    assert.deepEqual([comment.status, comment.body.content], [201, 'Nice one']);

    const bio = await server.api('PUT', '/api/users/me', { token: reader.token, json: { bio: `Poet${DIRT}\tand\r\nsailor` } });
    assert.deepEqual([bio.status, bio.body.bio], [200, 'Poet\tand\nsailor']);
  });

  test('a comment of nothing but invisible characters is empty', async () => {
    const post = await createPost(server, author);
    const res = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: DIRT } });
    assert.deepEqual([res.status, res.body], [400, { detail: 'Write a comment' }]);
    const count = await server.ctx.db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('post_id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  test('a title made long only by invisible characters is measured without them', async () => {
    const res = await server.api('POST', '/api/posts', {
      token: author.token,
      body: multipart({ title: `Too short${'\u200B'.repeat(30)}`, content: 'x'.repeat(200), hashtags: '["jazz"]' }),
    });
    assert.deepEqual([res.status, res.body], [400, { detail: 'Title must be between 20 and 80 characters' }]);
  });

  test('multipart content is stored with \\n only, whatever the transport sent', async () => {
    const body = multipart({
      title: 'Harbour lights at dusk and dawn',
      content: `The flats.\r\nGulls over the water.\rOld Mac line.\n${'Tide and salt and rope. '.repeat(8)}`,
      hashtags: '["sea"]',
    });
    const res = await server.api('POST', '/api/posts', { token: author.token, body });
    assert.equal(res.status, 201);
    assert.ok(res.body.content.startsWith('The flats.\nGulls over the water.\nOld Mac line.\n'), JSON.stringify(res.body.content.slice(0, 60)));
    assert.ok(!res.body.content.includes('\r'));
  });

  test('line endings are normalised before the length check: 10,000 characters with \\r\\n pass', async () => {
    const lines = 'a'.repeat(99) + '\r\n';              // 101 characters sent, 100 counted
    const content = lines.repeat(100).trimEnd();         // 9,999 counted, 10,099 sent
    const res = await server.api('POST', '/api/posts', {
      token: author.token,
      json: { title: 'Exactly at the limit of words', content, hashtags: ['limits'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.content.length, 9_999);
  });

  test('admin notifications and ban reasons are cleaned too', async () => {
    const admin = await createAdmin(server);
    const sent = await server.api('POST', '/api/admin/send-notification', {
      token: admin.token,
      json: { user_id: reader.id, subject: `Hello${DIRT}\nthere`, message: `Line one${DIRT}\r\nline two`, notification_type: 'general' },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const row = await server.ctx.db.selectFrom('notifications').select(['subject', 'message'])
      .where('user_id', '=', reader.id).where('type', '=', 'general').executeTakeFirstOrThrow();
    assert.deepEqual(row, { subject: 'Hello there', message: 'Line one\nline two' });
  });
});

describe('emails', () => {
  test('invalid emails get the message and create nothing; valid ones are stored lower-cased', async () => {
    for (const email of ['a@@b.co', 'a@b', 'a b@c.co', 'a\u200B@b.co', `${'x'.repeat(250)}@b.co`]) {
      const res = await server.api('POST', '/api/auth/register', {
        json: { username: `mail${Math.random().toString(36).slice(2, 8)}`, email, password: 'password123' },
      });
      assert.deepEqual([res.status, res.body], [400, { detail: 'Please enter a valid email address' }], JSON.stringify(email));
    }
    const ok = await server.api('POST', '/api/auth/register', {
      json: { username: `mixed${process.pid}`, email: ` Mixed.Case${process.pid}@Example.ORG `, password: 'password123' },
    });
    assert.deepEqual([ok.status, ok.body.email], [201, `mixed.case${process.pid}@example.org`]);
  });
});
