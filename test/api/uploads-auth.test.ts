// A multipart upload without a valid token is refused before its body is read (DESIGN.md, Edges):
// tried as an abuser would, by sending the headers of a large upload and only its first chunk.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { banInDatabase, createUser, multipart, samplePng, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let owner = '';
let banned = '';
let postId = 0;

before(async () => {
  server = await startTestServer();
  const author = await createUser(server);
  owner = author.token;
  postId = (await createPost(server, author)).id;
  const bannedUser = await createUser(server);
  await banInDatabase(server, bannedUser.id, { permanent: false, days: 3, reason: 'spam' });
  banned = bannedUser.token;
});
after(async () => { await server.stop(); });

const DECLARED = 4 * 1024 * 1024; // under every size limit: only the missing token may refuse it
const FIRST_CHUNK = 64 * 1024;
const BOUNDARY = 'beatnik-abuse';

interface EarlyAnswer {
  status: number;
  body: { detail?: string };
  /** Body bytes the client had written when the answer arrived. */
  sent: number;
  /**
   * Goes on sending the body, 16 KB every 20 ms, a slow client (a pace, not a wait: the server's
   * linger runs on this same event loop, so a busy machine slows both alike); resolves with the
   * bytes sent when it stops.
   */
  keepSending(): Promise<number>;
}

/**
 * Writes the headers and the first 64 KB of a 4 MB multipart body, then waits for an answer. A
 * server waiting for the body instead is seen as it starts reading it (multer piping the request
 * makes it flow) with no answer written yet: the upload then fails at once.
 */
function startLargeUpload(method: string, urlPath: string, token?: string): Promise<EarlyAnswer> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="bio"\r\n\r\nhello\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
  const firstChunk = Buffer.concat([head, Buffer.alloc(FIRST_CHUNK - head.length, 7)]);
  const headers: Record<string, string> = {
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    'content-length': String(DECLARED),
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, server.url), { method, headers });
    let sent = firstChunk.length;
    const keepSending = () => new Promise<number>((done) => {
      const trickle = setInterval(() => {
        if (req.destroyed || sent >= DECLARED) {
          clearInterval(trickle);
          done(sent);
          return;
        }
        const chunk = Buffer.alloc(Math.min(16 * 1024, DECLARED - sent), 7);
        sent += chunk.length;
        req.write(chunk);
      }, 20);
    });
    server.server.prependOnceListener('request', (incoming: http.IncomingMessage, response: http.ServerResponse) => {
      incoming.once('resume', () => {
        if (response.headersSent) return; // Node discarding the rest after the answer
        req.destroy();
        reject(new Error(`${method} ${urlPath}: the server read the body before answering`));
      });
    });
    req.on('error', () => { /* the server hanging up mid-upload is the point */ });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          sent,
          keepSending,
        });
      });
    });
    req.write(firstChunk);
  });
}

describe('a large multipart upload without a valid token', () => {
  const routes = [
    ['POST', '/api/posts'],
    ['PUT', '/api/posts/{id}'],
    ['PUT', '/api/users/me'],
  ] as const;
  const callers = [
    { as: 'a visitor', token: () => undefined, status: 401, detail: /^Not authenticated$/ },
    { as: 'a forged token', token: () => 'not.a.token', status: 401, detail: /^Could not validate credentials$/ },
    { as: 'a banned user', token: () => banned, status: 403, detail: /banned/i },
  ];
  for (const [method, route] of routes) {
    for (const caller of callers) {
      test(`${method} ${route} as ${caller.as}: ${caller.status} before the body is sent`, async () => {
        const answer = await startLargeUpload(method, route.replace('{id}', String(postId)), caller.token());
        assert.equal(answer.status, caller.status);
        assert.match(answer.body.detail ?? '', caller.detail);
        assert.ok(answer.sent <= DECLARED / 50, `answered after ${answer.sent} of ${DECLARED} bytes`);
      });
    }
  }

  test('the server hangs up on a client that goes on sending after the answer', async () => {
    const answer = await startLargeUpload('POST', '/api/posts');
    assert.equal(answer.status, 401);
    const sent = await answer.keepSending();
    assert.ok(sent < DECLARED / 4, `the server read ${sent} of ${DECLARED} bytes before hanging up`);
  });

  test('nothing was stored', async () => {
    const posts = await server.ctx.db.selectFrom('posts').select('id').execute();
    assert.deepEqual(posts.map((p) => p.id), [postId]);
  });
});

test('a signed-in user still uploads through the same form', async () => {
  const form = multipart({ bio: 'Still here.' }, { field: 'avatar', data: await samplePng() });
  const res = await server.api('PUT', '/api/users/me', { token: owner, body: form });
  assert.equal(res.status, 200);
  assert.equal(res.body.bio, 'Still here.');
  assert.match(res.body.avatar, /^\/uploads\//);
});
