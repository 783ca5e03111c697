// A link to an article pasted in a chat: the chat app's server fetches the page with no session and
// no JavaScript, reads og:title, og:description and og:image from its head, and fetches the image
// to show beside them (DESIGN.md, Reach). The server listens where PUBLIC_URL says, as it would
// behind its own address, so the preview follows the absolute links exactly as given.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { freePort } from '../../scripts/bench/processes.ts';
import { createUser, samplePng, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from './factories.ts';
import { pageTemplateDir, parsePage } from './html.ts';

/** What a chat app's preview bot sends: its own name, HTML first. */
const BOT = { 'user-agent': 'Mozilla/5.0 (compatible; ChatPreviewBot/1.0)', accept: 'text/html,*/*;q=0.8' };

let server: TestServer;
let templateDir: string;

before(async () => {
  templateDir = pageTemplateDir();
  const port = await freePort();
  server = await startTestServer({ clientDir: templateDir, config: { port }, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
});
after(async () => {
  await server.stop();
  rmSync(templateDir, { recursive: true, force: true });
});

/** The card a chat app draws for a link: what it reads from the page, and the picture it fetched. */
async function preview(link: string) {
  const res = await fetch(link, { headers: BOT, redirect: 'follow' });
  assert.equal(res.status, 200);
  const page = parsePage(await res.text());
  const [title] = page.meta('og:title');
  const [description] = page.meta('og:description');
  const [imageUrl] = page.meta('og:image');
  const [card] = page.meta('twitter:card');
  if (!imageUrl) return { title, description, card, image: undefined };
  const image = await fetch(imageUrl, { headers: { 'user-agent': BOT['user-agent'] } });
  return { title, description, card, imageUrl, image: { status: image.status, type: image.headers.get('content-type'), bytes: Buffer.from(await image.arrayBuffer()) } };
}

test('a pasted article link previews with its title, its opening words and its picture', async () => {
  const author = await createUser(server);
  const post = await createPost(server, author, {
    title: 'Howl, read aloud in a gallery on Fillmore Street',
    content: `The room was full before the first line. ${'Then the poem went on, louder each time. '.repeat(8)}`,
  }, await samplePng(1200, 800));

  const card = await preview(`${server.ctx.config.publicUrl}/post/${post.id}`);
  assert.equal(card.title, 'Howl, read aloud in a gallery on Fillmore Street');
  assert.ok(card.description?.startsWith('The room was full before the first line. Then the poem went on'), card.description);
  assert.ok(card.description!.length <= 160);
  assert.equal(card.card, 'summary_large_image');
  assert.equal(card.imageUrl, `${server.ctx.config.publicUrl}${post.image}`);
  assert.equal(card.image?.status, 200);
  assert.equal(card.image?.type, 'image/jpeg');
  const picture = await sharp(card.image!.bytes).metadata();
  assert.equal(picture.format, 'jpeg');
  assert.deepEqual([picture.width, picture.height], [1200, 800]);
});

test('an article without a picture previews as a small card with no image to fetch', async () => {
  const author = await createUser(server);
  const post = await createPost(server, author, { title: 'A poem with no picture beside it at all' });
  const card = await preview(`${server.ctx.config.publicUrl}/post/${post.id}`);
  assert.equal(card.title, 'A poem with no picture beside it at all');
  assert.equal(card.card, 'summary');
  assert.equal(card.image, undefined);
});
