// An image store that stops answering while its process lives (issue 27): every request to it
// is bounded (STORE_TIMEOUT_MS), an upload then answers 503 and publishes nothing, then or
// later, and /uploads/… answers 503 within the bound. The store is s3rver behind a proxy that,
// once paused, accepts and reads but answers nothing until resumed: a silent peer, for real.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { STORAGE_UNAVAILABLE, STORE_TIMEOUT_MS } from '../../server/images/s3-store.ts';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import { createUser, multipart, samplePng, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { logSink } from '../log-sink.ts';
import { waitFor } from '../wait-for.ts';
import { articleFields, createPost } from './factories.ts';

/** A TCP proxy to `port` on 127.0.0.1; paused, it holds what either side sends until resumed. */
async function pausableProxy(port: number) {
  let paused = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket) => from.on('data', (chunk) => {
    if (paused) held.push(() => to.write(chunk));
    else to.write(chunk);
  });
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => { client.destroy(); upstream.destroy(); sockets.delete(socket); });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    pause() { paused = true; },
    /** Whether it holds something sent while paused. */
    holding: () => held.length > 0,
    resume() {
      paused = false;
      for (const send of held.splice(0)) send();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let s3: FakeS3;
let proxy: Awaited<ReturnType<typeof pausableProxy>>;
let server: TestServer;
let author: TestUser;
const sink = logSink();

before(async () => {
  s3 = await startFakeS3();
  proxy = await pausableProxy(Number(new URL(s3.endpoint).port));
  server = await startTestServer({ env: { ...s3.env, S3_ENDPOINT: proxy.endpoint, LOG_LEVEL: 'debug' }, logTo: sink.stream });
  author = await createUser(server);
});
after(async () => {
  await server.stop();
  await proxy.close();
  await s3.stop();
});

const articles = () => sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', author.id);

/** A request given up by the test itself (status 0) when it outlasts the bound by far. */
async function timed(path: string, init: RequestInit = {}): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(server.url + path, { ...init, signal: AbortSignal.timeout(STORE_TIMEOUT_MS + 10_000) });
    return { status: res.status, body: await res.text(), ms: performance.now() - started };
  } catch {
    return { status: 0, body: 'no answer', ms: performance.now() - started };
  }
}

test('a silent store: an upload answers 503 within the bound and publishes nothing, /uploads/… answers 503, then it recovers', async (t) => {
  const png = await samplePng();
  const earlier = await createPost(server, author, {}, png);
  proxy.pause();
  const [upload, image] = await Promise.all([
    timed('/api/posts', { method: 'POST', headers: { authorization: `Bearer ${author.token}` }, body: multipart(articleFields(), { field: 'image', data: png }) }),
    timed(earlier.image),
  ]);
  t.diagnostic(`upload ${upload.status} after ${Math.round(upload.ms)} ms, image ${image.status} after ${Math.round(image.ms)} ms`);
  assert.equal(upload.status, 503, `upload: ${upload.status} ${upload.body} after ${Math.round(upload.ms)} ms`);
  assert.deepEqual(JSON.parse(upload.body), { detail: STORAGE_UNAVAILABLE });
  assert.ok(upload.ms < STORE_TIMEOUT_MS + 3_000, `upload answered after ${Math.round(upload.ms)} ms`);
  assert.equal(image.status, 503, `image: ${image.status} after ${Math.round(image.ms)} ms`);
  assert.ok(image.ms < STORE_TIMEOUT_MS + 3_000, `image answered after ${Math.round(image.ms)} ms`);
  assert.equal(await articles(), 1, 'the refused upload made no article');
  // The store answers again, the requests it held included: the refused upload stays refused.
  proxy.resume();
  await waitFor(async () => (await fetch(server.url + earlier.image)).status === 200, { what: 'images served again' });
  await createPost(server, author, {}, png);
  assert.equal(await articles(), 2, 'only the upload made after the store came back');
});

test('an upload whose client gave up while the store stalled is not published when the store answers', async () => {
  const [articlesBefore, keysBefore] = [await articles(), await s3.keys()];
  proxy.pause();
  const abandon = new AbortController();
  const upload = fetch(`${server.url}/api/posts`, {
    method: 'POST', headers: { authorization: `Bearer ${author.token}` },
    body: multipart(articleFields(), { field: 'image', data: await samplePng() }), signal: abandon.signal,
  }).catch(() => 'abandoned');
  await waitFor(() => proxy.holding(), { what: 'the image on its way to the store' });
  abandon.abort();
  assert.equal(await upload, 'abandoned');
  await waitFor(() => sink.lines.some((l) => l.path === '/api/posts' && l.aborted), { what: 'the server to see its client leave' });
  // The store answers within the bound: the image is stored, too late.
  proxy.resume();
  const dropped = () => sink.lines.some((l) => l.msg === 'an upload whose client left before its image was stored is not published');
  await waitFor(async () => dropped() || await articles() > articlesBefore, { what: 'the late upload to be dropped or published' });
  assert.equal(await articles(), articlesBefore, 'the abandoned upload was published later');
  await waitFor(async () => (await s3.keys()).length === keysBefore.length, { what: 'its image to be removed' });
});
