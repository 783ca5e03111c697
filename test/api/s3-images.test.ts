// Images on S3-compatible storage (DESIGN.md, More than one box): with the S3_ variables set,
// uploads go to the bucket and nowhere else, /uploads/… serves them as the data directory would,
// and every image the site lets go of leaves the bucket. Against s3rver (test/fake-s3.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { serveFromS3 } from '../../server/images/s3-serve.ts';
import { STORAGE_UNAVAILABLE } from '../../server/images/s3-store.ts';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import {
  createAdmin, createUser, multipart, samplePng, sqlNumber, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { waitFor } from '../wait-for.ts';
import { articleFields, createPost } from './factories.ts';

let s3: FakeS3;
let server: TestServer;
let disk: TestServer;
let author: TestUser;

before(async () => {
  s3 = await startFakeS3();
  [server, disk] = await Promise.all([startTestServer({ env: s3.env }), startTestServer()]);
  author = await createUser(server);
});
after(async () => {
  await Promise.all([server.stop(), disk.stop()]);
  await s3.stop();
});

const keyOf = (url: string) => path.basename(url);

/** A GET without fetch's own additions (it sends Cache-Control: no-cache with conditions). */
function rawGet(
  url: string, headers: Record<string, string> = {}, method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

/** The headers both stores must agree on, for the same image bytes. */
const SAME = ['content-type', 'content-length', 'cache-control', 'accept-ranges', 'x-content-type-options', 'content-security-policy'];

describe('uploads with S3 configured', () => {
  test('an article image goes to the bucket, nothing to DATA_DIR/uploads, and is served with the disk store\'s headers', async () => {
    const png = await samplePng(800, 600);
    const post = await createPost(server, author, {}, png);
    assert.match(post.image, /^\/uploads\/article-[0-9a-f]{32}\.jpg$/);
    assert.ok((await s3.keys()).includes(keyOf(post.image)));
    const stored = await s3.read(keyOf(post.image));
    assert.ok(stored && stored.length > 0);
    assert.ok(!existsSync(path.join(server.dataDir, 'uploads')), 'no uploads folder is even made');

    const served = await rawGet(server.url + post.image);
    assert.equal(served.status, 200);
    assert.deepEqual(served.body, stored, 'the same bytes');

    // The same image on the disk store, for comparison: the same answer but for the validators.
    const diskAuthor = await createUser(disk);
    const diskPost = await createPost(disk, diskAuthor, {}, png);
    const fromDisk = await rawGet(disk.url + diskPost.image);
    assert.deepEqual(fromDisk.body, stored, 'both stores hold what sharp made');
    for (const name of SAME) assert.equal(served.headers[name], fromDisk.headers[name], name);
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(served.headers['content-type'], 'image/jpeg');
    assert.ok(served.headers.etag, 'an ETag');
    assert.ok(served.headers['last-modified'], 'a Last-Modified date');
  });

  test('an avatar goes to the bucket; replacing it removes the old object', async () => {
    const user = await createUser(server);
    const form = async () => multipart({}, { field: 'avatar', data: await samplePng(500, 300) });
    const first = await server.api('PUT', '/api/users/me', { token: user.token, body: await form() });
    assert.equal(first.status, 200);
    assert.match(first.body.avatar, /^\/uploads\/avatar-[0-9a-f]{32}\.jpg$/);
    assert.ok(await s3.read(keyOf(first.body.avatar)));
    const served = await fetch(server.url + first.body.avatar);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), await s3.read(keyOf(first.body.avatar)));

    const second = await server.api('PUT', '/api/users/me', { token: user.token, body: await form() });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.avatar, first.body.avatar);
    assert.ok(await s3.read(keyOf(second.body.avatar)));
    assert.equal(await s3.read(keyOf(first.body.avatar)), undefined, 'the replaced avatar left the bucket');
    assert.equal((await fetch(server.url + first.body.avatar)).status, 404);
  });

  test('deleting a post removes its object; so do an admin\'s deletion and a replaced image', async () => {
    const png = await samplePng();
    const own = await createPost(server, author, {}, png);
    assert.equal((await server.api('DELETE', `/api/posts/${own.id}`, { token: author.token })).status, 200);
    assert.equal(await s3.read(keyOf(own.image)), undefined);
    assert.equal((await fetch(server.url + own.image)).status, 404);

    const admin = await createAdmin(server);
    const moderated = await createPost(server, author, {}, png);
    const removed = await server.api('DELETE', `/api/admin/delete-post/${moderated.id}?reason=Spam`, { token: admin.token });
    assert.equal(removed.status, 200);
    assert.equal(await s3.read(keyOf(moderated.image)), undefined);

    const edited = await createPost(server, author, {}, png);
    const update = await server.api('PUT', `/api/posts/${edited.id}`, {
      token: author.token, body: multipart(articleFields(), { field: 'image', data: await samplePng(90, 60) }),
    });
    assert.equal(update.status, 200);
    assert.equal(await s3.read(keyOf(edited.image)), undefined, 'the replaced image left the bucket');
    assert.ok(await s3.read(keyOf(update.body.image)));
  });

  test('a feed announces an image in the bucket with its size in bytes', async () => {
    const post = await createPost(server, author, {}, await samplePng());
    const feed = await server.api('GET', `/beatnik/${author.username}/feed.json`);
    const item = feed.body.items.find((i: any) => i.id.endsWith(`/post/${post.id}`));
    const stored = await s3.read(keyOf(post.image));
    assert.deepEqual(item.attachments, [{ url: item.image, mime_type: 'image/jpeg', size_in_bytes: stored!.length }]);
  });

  test('an upload refused for its content stores nothing', async () => {
    const before = await s3.keys();
    const res = await server.api('POST', '/api/posts', {
      token: author.token, body: multipart(articleFields(), { field: 'image', data: Buffer.from('not a picture') }),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await s3.keys(), before);
  });
});

describe('serving /uploads from S3 as express.static serves the data directory', () => {
  let url: string;
  let etag: string;
  let lastModified: string;
  before(async () => {
    const post = await createPost(server, author, {}, await samplePng());
    url = server.url + post.image;
    const first = await rawGet(url);
    etag = first.headers.etag!;
    lastModified = first.headers['last-modified']!;
  });

  test('If-None-Match with the ETag, or If-Modified-Since, gets a 304 with the caching headers', async () => {
    for (const headers of [{ 'if-none-match': etag }, { 'if-modified-since': lastModified }] as Array<Record<string, string>>) {
      const res = await rawGet(url, headers);
      assert.equal(res.status, 304, JSON.stringify(headers));
      assert.equal(res.body.length, 0);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    assert.equal((await rawGet(url, { 'if-none-match': etag })).headers.etag, etag);
    assert.equal((await rawGet(url, { 'if-none-match': '"another"' })).status, 200);
  });

  test('a byte range is a 206; an unsatisfiable one a 416, as on disk', async () => {
    const whole = await rawGet(url);
    const part = await rawGet(url, { range: 'bytes=0-9' });
    assert.equal(part.status, 206);
    assert.equal(part.headers['content-range'], `bytes 0-9/${whole.body.length}`);
    assert.deepEqual(part.body, whole.body.subarray(0, 10));
    const beyond = await rawGet(url, { range: `bytes=${whole.body.length + 10}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers['content-range'], `bytes */${whole.body.length}`);
  });

  test('HEAD answers the headers without the body', async () => {
    const res = await rawGet(url, {}, 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 0);
    assert.equal(res.headers['content-length'], String((await rawGet(url)).body.length));
    assert.equal(res.headers.etag, etag);
  });

  test('a missing name, another method, or anything but a plain name is a 404', async () => {
    await s3.write('.hidden', Buffer.from('x'));
    await s3.write('nested/inside.jpg', Buffer.from('x'));
    for (const target of ['/uploads/missing.jpg', '/uploads/.hidden', '/uploads/nested/inside.jpg',
      '/uploads/nested%2Finside.jpg', '/uploads/..%2Fbeatnik.db', '/uploads/', '/uploads']) {
      const res = await rawGet(server.url + target);
      assert.equal(res.status, 404, target);
      assert.match(String(res.headers['content-type']), /^text\/plain/, target);
    }
    assert.equal((await fetch(url, { method: 'POST' })).status, 404);
  });
});

describe('streaming from S3', () => {
  /** A bucket whose one object's body the test feeds by hand. */
  async function serveFrom(body: PassThrough, length: number) {
    const fetchObject = async () => ({ Body: body, ContentLength: length, ETag: '"e"', LastModified: new Date() });
    const app = express().use('/uploads', serveFromS3(fetchObject, server.ctx.log));
    const listener = app.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    return { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/uploads/photo.jpg`, listener };
  }

  test('the reader gets the first bytes before S3 has sent the rest', async () => {
    const body = new PassThrough();
    const { url, listener } = await serveFrom(body, 8);
    try {
      body.write('head');
      const res = await fetch(url);
      const reader = res.body!.getReader();
      const first = await reader.read();
      assert.equal(Buffer.from(first.value!).toString(), 'head', 'sent on while S3 is still sending');
      body.end('tail');
      const rest = await reader.read();
      assert.equal(Buffer.from(rest.value!).toString(), 'tail');
    } finally {
      listener.close();
    }
  });

  test('a reader who leaves stops the read from S3', async () => {
    const body = new PassThrough();
    const { url, listener } = await serveFrom(body, 1_000_000);
    try {
      body.write(Buffer.alloc(1000));
      const res = await fetch(url);
      await res.body!.getReader().cancel();
      await waitFor(() => body.destroyed, { what: 'the S3 body to be dropped' });
    } finally {
      listener.close();
    }
  });
});

describe('when the bucket stops answering', () => {
  test('an upload gets a 503 to retry and writes nothing; reading an image gets a 503', async () => {
    const lost = await startFakeS3('short-lived');
    const site = await startTestServer({ env: lost.env });
    try {
      const user = await createUser(site);
      const kept = await createPost(site, user, {}, await samplePng());
      await lost.stop();
      const res = await site.api('POST', '/api/posts', {
        token: user.token, body: multipart(articleFields(), { field: 'image', data: await samplePng() }),
      });
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { detail: STORAGE_UNAVAILABLE });
      assert.equal(await sqlNumber(site.ctx.db, 'SELECT count(*) FROM posts'), 1, 'no post without its image');
      assert.equal((await fetch(site.url + kept.image)).status, 503);
      // Deleting still works: the post goes, the object it leaves behind is only logged.
      assert.equal((await site.api('DELETE', `/api/posts/${kept.id}`, { token: user.token })).status, 200);
    } finally {
      await site.stop();
    }
  });
});

