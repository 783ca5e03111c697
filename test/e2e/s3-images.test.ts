// Images on S3 in Chromium: an article's picture and an author's avatar kept in the bucket show
// on the article page, loaded from the site's own /uploads/… (never from the bucket's address).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import { createUser, multipart, samplePng, startTestServer, type TestServer } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, startReader, type Reader } from './reader-support.ts';

/** Waits until an image with this src has been loaded and decoded. */
function shown(page: Page, src: string) {
  return page.waitForFunction((wanted) => {
    const img = document.querySelector<HTMLImageElement>(`img[src="${wanted}"]`);
    return img !== null && img.complete && img.naturalWidth > 0;
  }, src);
}

let s3: FakeS3;
let server: TestServer;
let reader: Reader;

describe('images on S3 in Chromium', () => {
  before(async () => {
    s3 = await startFakeS3();
    server = await startTestServer({ env: s3.env });
    reader = await startReader(server);
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
    await s3?.stop();
  });

  it('shows the article\'s picture and the author\'s avatar from the bucket', async () => {
    const author = await createUser(server);
    const avatar = await server.api('PUT', '/api/users/me', {
      token: author.token, body: multipart({}, { field: 'avatar', data: await samplePng(300, 300) }),
    });
    assert.equal(avatar.status, 200);
    const post = await createPost(server, author, { title: 'Pictures kept in a bucket, shown on the page' }, await samplePng(900, 500));
    assert.deepEqual(await s3.keys(), [avatar.body.avatar, post.image].map((url: string) => url.split('/').pop()).sort());

    const watched = await reader.open(`/post/${post.id}`);
    const picture = watched.page.locator(`img[src="${post.image}"]`).first();
    await picture.waitFor();
    await shown(watched.page, post.image);
    assert.equal(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth), 900);
    await screenshot(watched.page, 's3-images-article');
    await closeClean(watched);

    const profile = await reader.open(`/beatnik/${author.username}`);
    await shown(profile.page, avatar.body.avatar);
    await closeClean(profile);
  });
});
