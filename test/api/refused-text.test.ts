// Text no input may carry (issue 27; server/refused-text.ts): U+0000 (PostgreSQL refuses it in
// text: it was a 500 there), lone surrogates and bytes that are not UTF-8 (over-long 0xC0 0x80),
// sent in the path, the query and the body of every route the API has, read from its routers
// so that none is forgotten, and to the pages: a 400 (the API) or the not-found page, never a
// 5xx, and nothing changed. On both databases.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Router } from 'express';
import { REFUSED_TEXT } from '../../server/refused-text.ts';
import { apiRouters } from '../../server/routes.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { pageTemplateDir } from './html.ts';
import { snapshot } from './permissions.ts';

let server: TestServer;
let admin: TestUser;
let author: TestUser;
let postId: number;
let clientDir: string;

before(async () => {
  clientDir = pageTemplateDir();
  server = await startTestServer({ clientDir });
  admin = await createAdmin(server);
  author = await createUser(server);
  postId = (await createPost(server, author)).id;
});

after(async () => {
  await server.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

interface Sent {
  status: number;
  type: string;
  body: any;
}

/** The path sent byte for byte, and the body as given: fetch would re-encode either. */
function send(method: string, urlPath: string, body?: { type: string; data: Buffer }, token = admin.token): Promise<Sent> {
  const { hostname, port } = new URL(server.url);
  const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
  if (body) Object.assign(headers, { 'content-type': body.type, 'content-length': body.data.length });
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: urlPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* a page */ }
        resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body?.data);
  });
}

/** Every route of every API router, as Express holds them. */
function apiRoutes(): Array<{ method: string; route: string }> {
  const routes: Array<{ method: string; route: string }> = [];
  for (const router of apiRouters(server.ctx) as Array<Router & { stack: any[] }>) {
    for (const layer of router.stack) {
      if (!layer.route) continue;
      for (const route of [layer.route.path].flat() as string[]) {
        for (const method of Object.keys(layer.route.methods)) routes.push({ method: method.toUpperCase(), route: `/api${route}` });
      }
    }
  }
  return routes;
}

/** Refused text in three spellings of a URL: NUL, an encoded lone surrogate, over-long UTF-8. */
const IN_URL = ['a%00b', '%ED%A0%80', '%C0%80'];

const json = (text: string) => ({ type: 'application/json', data: Buffer.from(text) });
/** Names the routes read, so that a check that missed one would meet it. */
const FIELDS = ['email', 'password', 'username', 'title', 'content', 'bio', 'hashtags', 'subject', 'message', 'reason', 'tag', 'note'];
const everyField = (value: string) => `{${FIELDS.map((name) => `"${name}":"${value}"`).join(',')},"rating":3,"post_id":1,"user_id":1}`;

const BODIES = [
  json(everyField('a\\u0000b@x.io')),                          // NUL as JSON writes it
  json(everyField('a\\ud800b')),                               // a lone surrogate as JSON writes it
  json(everyField('x\\udc00')),
  json('{"a\\u0000b": "value", "nested": [{"deep": "x\\u0000"}]}'), // in a key, deep down
  { type: 'application/json', data: Buffer.concat([Buffer.from(everyField('a').slice(0, -1) + ',"content":"a'), Buffer.from([0xc0, 0x80]), Buffer.from('b"}')]) },
  { type: 'application/json', data: Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('@x.io","password":"password123"}')]) },
];

/** A multipart form with one field made of these bytes (and valid ones for the rest). */
function form(bytes: Buffer): { type: string; data: Buffer } {
  const boundary = 'refusedtextboundary';
  const field = (name: string, value: Buffer) => Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), value, Buffer.from('\r\n'),
  ]);
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    data: Buffer.concat([
      field('title', Buffer.concat([Buffer.from('A headline long enough to pass '), bytes])),
      field('content', Buffer.from('Long enough content for an article. '.repeat(6))),
      field('hashtags', Buffer.from('["jazz"]')),
      field('bio', bytes),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  };
}
const FORMS = [form(Buffer.from([0x00])), form(Buffer.from([0xc0, 0x80])), form(Buffer.from([0xed, 0xa0, 0x80])), form(Buffer.from([0xff]))];
const MULTIPART_ROUTES = new Set(['POST /api/posts', 'PUT /api/posts/:id', 'POST /api/posts/:id/publish', 'PUT /api/users/me']);

/** A path parameter's ordinary value: the request would act on something if the check let it by. */
function fill(route: string, value?: string): string {
  return route.replace(/:(\w+)/g, (_, name: string) => value ?? (/username/.test(name) ? author.username : String(postId)));
}

function assertRefused(res: Sent, what: string): void {
  assert.ok(res.status === 400 || res.status === 404, `${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  assert.equal(typeof res.body?.detail, 'string', `${what}: ${JSON.stringify(res.body).slice(0, 200)}`);
}

test('every API route refuses NUL, lone surrogates and over-long UTF-8 in its path, query and body; nothing changes', async () => {
  const routes = apiRoutes();
  assert.ok(routes.length > 60, `all the routes: ${routes.length}`);
  for (const { method, route } of routes) {
    const before = await snapshot(server);
    for (const bad of IN_URL) {
      if (route.includes(':')) assertRefused(await send(method, fill(route, bad)), `${method} ${route} path ${bad}`);
      const query = `?q=${bad}&search=${bad}&hashtag=${bad}&username=${bad}&skip=0`;
      const res = await send(method, `${fill(route)}${query}`);
      assertRefused(res, `${method} ${route} query ${bad}`);
      assert.equal(res.status, 400, `${method} ${route} query ${bad}`);
    }
    if (method !== 'GET') {
      for (const [i, body] of BODIES.entries()) {
        const res = await send(method, fill(route), body);
        assert.deepEqual([res.status, res.body], [400, { detail: REFUSED_TEXT }], `${method} ${route} body ${i}`);
      }
      if (MULTIPART_ROUTES.has(`${method} ${route}`)) {
        for (const [i, body] of FORMS.entries()) {
          const res = await send(method, fill(route), body, author.token);
          assert.deepEqual([res.status, res.body], [400, { detail: REFUSED_TEXT }], `${method} ${route} form ${i}`);
        }
      }
    }
    const after = await snapshot(server);
    const changed = Object.keys(after).filter((part) => after[part] !== before[part]);
    assert.deepEqual(changed, [], `${method} ${route} changed ${changed.join(', ')}`);
  }
});

test('the reports of issue 27: sign-in and a username lookup with a NUL are 400s', async () => {
  const login = await send('POST', '/api/auth/login', json('{"email":"a\\u0000b@x.io","password":"password123"}'));
  assert.deepEqual([login.status, login.body], [400, { detail: REFUSED_TEXT }]);
  const lookup = await send('GET', '/api/users/by-username/a%00b');
  assert.deepEqual([lookup.status, lookup.body], [400, { detail: REFUSED_TEXT }]);
  // Everything else still answers.
  assert.equal((await send('GET', `/api/users/by-username/${author.username}`)).status, 200);
});

test('a page or feed address with refused text gets the not-found page, never the shell', async () => {
  const addresses = [
    '/beatnik/a%00b', `/post/${postId}%00`, '/post/a%00b', '/search?q=a%00b', '/search?q=%C0%80', '/ranks?hashtag=%00',
    '/authors?search=%ED%A0%80', '/moderation?skip=%00', '/beatnik/a%00b/feed.xml', '/hashtag/a%00b/feed.json', '/uploads/a%00b.webp',
    '/sitemap.xml?x=%00', '/nowhere%00',
  ];
  for (const address of addresses) {
    const res = await send('GET', address);
    assert.equal(res.status, 404, `${address}: ${res.status}`);
  }
  const page = await send('GET', '/beatnik/a%00b');
  assert.match(page.type, /^text\/html/);
  assert.match(page.body, /Page not found/);
  // A path that cannot be decoded at all is still the 400 it was (paths.ts).
  assert.equal((await send('GET', '/beatnik/%C0%80')).status, 400);
});

test('ordinary text still passes: UTF-8 in forms and JSON, other control characters cleaned', async () => {
  const res = await send('POST', '/api/posts', form(Buffer.from('— café 🎷')), author.token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.title, 'A headline long enough to pass — café 🎷');
  const comment = await send('POST', `/api/posts/${postId}/comments`, json('{"content":"Nice\\u0007 one 🎷"}'), admin.token);
  assert.deepEqual([comment.status, comment.body.content], [201, 'Nice one 🎷']);
  const search = await send('GET', `/api/search?q=caf%C3%A9+%F0%9F%8E%B7`);
  assert.equal(search.status, 200);
});
