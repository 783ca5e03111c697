import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { createUser, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let clientDir: string;
const INDEX = '<!doctype html><title>Beatnik</title><script type="module" src="/assets/main-abc.js"></script>';
const SCRIPT = 'console.log("beatnik");'.repeat(50);
const UNCOMPRESSED = `/* built without .br and .gz copies */ ${'console.log("as built");'.repeat(60)}`;

before(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'beatnik-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  writeFileSync(path.join(clientDir, 'assets/main-abc.js'), SCRIPT);
  writeFileSync(path.join(clientDir, 'assets/main-abc.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(clientDir, 'assets/main-abc.js.gz'), gzipSync(SCRIPT));
  writeFileSync(path.join(clientDir, 'assets/plain-abc.js'), UNCOMPRESSED);
  server = await startTestServer({ clientDir, env: { SIGNIN_CLIENT_ID: 'client-123' } });
});
after(async () => {
  await server.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('system endpoints', () => {
  test('GET /api/health', async () => {
    const res = await server.api('GET', '/api/health');
    assert.deepEqual([res.status, res.body], [200, { status: 'ok' }]);
  });

  test('GET /api/config exposes the sign-in client id, and whether mail is on', async () => {
    const res = await server.api('GET', '/api/config');
    assert.deepEqual([res.status, res.body], [200, { signin_client_id: 'client-123', mail: false }]);
  });

  test('unknown API paths are JSON 404s, never the client page', async () => {
    for (const [method, url] of [['GET', '/api/nothing'], ['POST', '/api/health'], ['DELETE', '/api/auth/login'], ['GET', '/api']]) {
      const res = await server.api(method!, url!);
      assert.equal(res.status, 404, `${method} ${url}`);
      assert.match(res.body.detail, /^No API route for /);
    }
  });

  test('security headers on every response', async () => {
    const res = await server.api('GET', '/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /img-src 'self' data: blob:/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-powered-by'), null);
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

describe('the client bundle', () => {
  test('deep links get index.html, uncached', async () => {
    for (const url of ['/', '/post/12', '/beatnik/ana', '/ranks?hashtag=jazz']) {
      const res = await fetch(server.url + url);
      assert.equal(res.status, 200, url);
      assert.equal(await res.text(), INDEX);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
  });

  test('hashed assets are pre-compressed and immutable', async () => {
    const br = await fetch(`${server.url}/assets/main-abc.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(br.headers.get('content-encoding'), 'br');
    assert.equal(await br.text(), SCRIPT);
    assert.match(br.headers.get('cache-control') ?? '', /immutable/);
    const gz = await fetch(`${server.url}/assets/main-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.equal(await gz.text(), SCRIPT);
    const etag = gz.headers.get('etag')!;
    const cached = await fetch(`${server.url}/assets/main-abc.js`, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
  });

  test('bundle files are never compressed again per request', async () => {
    const res = await fetch(`${server.url}/assets/plain-abc.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.headers.get('content-encoding'), null);
    assert.equal(await res.text(), UNCOMPRESSED);
  });

  test('a missing file is a 404, not the page', async () => {
    assert.equal((await fetch(`${server.url}/assets/missing.js`)).status, 404);
    assert.equal((await fetch(`${server.url}/uploads/missing.jpg`)).status, 404);
  });
});

describe('compression', () => {
  test('JSON over 1 KB is sent as br or gzip per Accept-Encoding; smaller bodies as they are', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author, { content: 'A long article about compression. '.repeat(60) });
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['identity', null]] as const) {
      const res = await fetch(`${server.url}/api/posts/${post.id}`, { headers: { 'accept-encoding': accept } });
      assert.equal(res.headers.get('content-encoding'), encoding, accept);
      assert.equal(res.headers.get('vary'), 'Accept-Encoding');
      assert.equal((await res.json()).content, post.content);
    }
    const small = await fetch(`${server.url}/api/health`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(small.headers.get('content-encoding'), null);
  });
});

describe('HSTS follows PUBLIC_URL', () => {
  test('not sent while the public address is plain http', async () => {
    const res = await server.api('GET', '/api/health');
    assert.equal(res.headers.get('strict-transport-security'), null);
  });

  test('sent on every response when PUBLIC_URL is https', async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://paper.example.org' }, clientDir });
    try {
      for (const url of ['/api/health', '/', '/assets/main-abc.js', '/api/nothing']) {
        const res = await fetch(https.url + url);
        assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains', url);
      }
    } finally {
      await https.stop();
    }
  });
});

describe('rate limits (RATE_LIMITS=on)', () => {
  test('failed logins on one account are throttled with a 429 saying when to retry', async () => {
    const limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    try {
      const user = await createUser(limited);
      for (let i = 0; i < 5; i += 1) {
        const res = await limited.api('POST', '/api/auth/login', { json: { email: user.email, password: 'wrong-password' } });
        assert.equal(res.status, 401);
      }
      const blocked = await limited.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
      assert.equal(blocked.status, 429);
      assert.match(blocked.body.detail, /^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/);
      assert.ok(Number(blocked.headers.get('retry-after')) > 0);
      // Another account from the same address is not affected.
      const other = await createUser(limited);
      const ok = await limited.api('POST', '/api/auth/login', { json: { email: other.email, password: other.password } });
      assert.equal(ok.status, 200);
    } finally {
      await limited.stop();
    }
  });

  test('registrations from one address are throttled', async () => {
    const limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1) {
        const res = await limited.api('POST', '/api/auth/register', { json: { username: `flood${i}`, email: `flood${i}@x.io`, password: 'secret1' } });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses.slice(0, 20), Array(20).fill(201));
      assert.equal(statuses[20], 429);
    } finally {
      await limited.stop();
    }
  });
});

describe('graceful shutdown', () => {
  test('an in-flight request finishes, then the port closes', async () => {
    const closing = await startTestServer();
    const arrived = once(closing.server, 'request');
    let answered = false;
    const inFlight = closing.api('POST', '/api/auth/register', { json: { username: 'late', email: 'late@x.io', password: 'secret1' } })
      .finally(() => { answered = true; });
    await arrived;
    const stopped = closing.stop();
    assert.equal(answered, false, 'close() starts while the registration is being handled');
    await stopped;
    assert.equal((await inFlight).status, 201);
    await assert.rejects(fetch(`${closing.url}/api/health`));
  });
});

describe('write throttling (RATE_LIMITS=on)', () => {
  test('a flood of writes from one account gets 429; reads are not throttled', async () => {
    const limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    try {
      const user = await createUser(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        const res = await limited.api('POST', '/api/posts/999/comments', { token: user.token, json: { content: 'spam' } });
        statuses.push(res.status);
      }
      assert.deepEqual(new Set(statuses.slice(0, 60)), new Set([404]));
      assert.equal(statuses[60], 429);
      assert.equal((await limited.api('GET', '/api/posts')).status, 200);
    } finally {
      await limited.stop();
    }
  });
});

describe('source maps', () => {
  test('are served from disk on request', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-maps-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets/main-abc.js.map'), '{"version":3}');
    const withMaps = await startTestServer({ clientDir: dir });
    try {
      const res = await fetch(`${withMaps.url}/assets/main-abc.js.map`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '{"version":3}');
      assert.equal((await fetch(`${withMaps.url}/assets/other.js.map`)).status, 404);
    } finally {
      await withMaps.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
