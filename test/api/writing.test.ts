// Writing (DESIGN.md, Writing) through the API: Markdown stored as written and rendered once,
// everywhere a text is read; mentions and who they notify; the picture's alt text; reading time;
// POST /api/preview.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, multipart, samplePng, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';

const OFF_SITE = 'rel="ugc nofollow noopener noreferrer"';
const BODY = 'A line with **bold** and _italic_ words,\nthen a [link](https://example.com/x) and a list:\n\n- one\n- two\n\n'
  + '> a quote to end it, long enough to pass the hundred and fifty characters an article needs.';

let server: TestServer;
let ana: TestUser;
let bob: TestUser;
let cleo: TestUser;

const mentionsOf = async (user: TestUser) => (await server.api('GET', '/api/notifications', { token: user.token })).body
  .notifications.filter((n: { type: string }) => n.type === 'mention');

describe('writing in Markdown', () => {
  before(async () => {
    server = await startTestServer();
    [ana, bob, cleo] = [await createUser(server, { username: 'ana_w' }), await createUser(server, { username: 'Bob.W' }), await createUser(server, { username: 'cleo-w' })];
  });
  after(async () => { await server?.stop(); });

  it('keeps the source in content and serves its rendering as content_html, on every read', async () => {
    const post = await createPost(server, ana, { content: BODY });
    assert.equal(post.content, BODY);
    assert.equal(post.content_html, '<p>A line with <strong>bold</strong> and <em>italic</em> words,<br />\n'
      + `then a <a href="https://example.com/x" ${OFF_SITE}>link</a> and a list:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n`
      + '<blockquote>\n<p>a quote to end it, long enough to pass the hundred and fifty characters an article needs.</p>\n</blockquote>\n');
    assert.equal(post.reading_minutes, 1);
    const read = await server.api('GET', `/api/posts/${post.id}`);
    assert.equal(read.body.content_html, post.content_html);
    const listed = (await server.api('GET', '/api/posts?limit=5')).body.posts.find((p: { id: number }) => p.id === post.id);
    assert.equal(listed.content_html, post.content_html);
    const [stored] = await sqlRows<{ content: string; content_html: string }>(server.ctx.db, 'SELECT content, content_html FROM posts WHERE id = ?', post.id);
    assert.deepEqual(stored, { content: BODY, content_html: post.content_html });
  });

  it('excerpts, search snippets, descriptions and feeds read the text without its markup', async () => {
    const post = await createPost(server, ana, { title: 'Markup stays out of every excerpt', content: `**Zanzibar** nights, *slow* and \`warm\`. ${BODY}` });
    const front = (await server.api('GET', '/api/frontpage')).body.posts.find((p: { id: number }) => p.id === post.id);
    assert.match(front.excerpt, /^Zanzibar nights, slow and warm\. A line with bold and italic words/);
    const found = (await server.api('GET', '/api/search?q=zanzibar')).body.posts[0];
    assert.equal(found.id, post.id);
    assert.doesNotMatch(found.snippet.map((s: { text: string }) => s.text).join(''), /\*\*|`/);
    const page = await server.api('GET', `/post/${post.id}`);
    assert.match(page.body, /<meta name="description" content="Zanzibar nights, slow and warm\. A line with bold/);
    assert.match(page.body, /<strong>Zanzibar<\/strong> nights/, 'the server-rendered page carries the stored HTML');
    const feed = (await server.api('GET', '/feed.xml')).body as string;
    assert.match(feed, /<strong>Zanzibar<\/strong>/);
  });

  it('reading time: words ÷ 230, at least a minute', async () => {
    const post = await createPost(server, ana, { content: 'word '.repeat(700).trim() });
    assert.equal(post.reading_minutes, 3);
  });

  it('the picture\'s alt text: kept with the picture, at most 200 characters, and on the page', async () => {
    const fields = { ...articleFields(), image_alt: 'A trumpet on a chair, lit from the left' };
    const res = await server.api('POST', '/api/posts', { token: ana.token, body: multipart(fields, { field: 'image', data: await samplePng() }) });
    assert.equal(res.status, 201);
    assert.equal(res.body.image_alt, 'A trumpet on a chair, lit from the left');
    const page = await server.api('GET', `/post/${res.body.id}`);
    assert.match(page.body, /<meta property="og:image:alt" content="A trumpet on a chair, lit from the left">/);
    const before = (await sqlRows(server.ctx.db, 'SELECT id FROM posts')).length;
    const tooLong = await server.api('POST', '/api/posts', { token: ana.token, body: multipart({ ...articleFields(), image_alt: 'x'.repeat(201) }) });
    assert.deepEqual([tooLong.status, tooLong.body], [400, { detail: 'Alt text cannot exceed 200 characters' }]);
    assert.equal((await sqlRows(server.ctx.db, 'SELECT id FROM posts')).length, before, 'nothing was published');
    const removed = await server.api('PUT', `/api/posts/${res.body.id}`, { token: ana.token, body: multipart({ ...articleFields(), remove_image: 'true' }) });
    assert.deepEqual([removed.body.image, removed.body.image_alt], [null, ''], 'the alt text goes with its picture');
  });

  it('@mentions link to profiles and notify the users named, once, never the writer', async () => {
    const post = await createPost(server, ana, { content: `Thanks @bob.w, @BOB.W again, @cleo-w, @ana_w (me) and @nobody_here. ${BODY}` });
    assert.match(post.content_html, /<a href="\/beatnik\/Bob\.W" class="mention">@bob\.w<\/a>/);
    assert.match(post.content_html, /<a href="\/beatnik\/cleo-w" class="mention">@cleo-w<\/a>/);
    assert.match(post.content_html, /@nobody_here/);
    const [notice] = await mentionsOf(bob);
    assert.equal(notice.message, `ana_w mentioned you in "${post.title}"`);
    assert.equal(notice.post_id, post.id);
    assert.equal(notice.created_by, 'ana_w');
    assert.equal((await mentionsOf(bob)).length, 1);
    assert.equal((await mentionsOf(cleo)).length, 1);
    assert.equal((await mentionsOf(ana)).length, 0, 'never the writer');
  });

  it('an edit notifies only the names it adds; a draft notifies nobody until it is published', async () => {
    const dan = await createUser(server, { username: 'dan_w' });
    const eve = await createUser(server, { username: 'eve_w' });
    const post = await createPost(server, ana, { content: `For @dan_w. ${BODY}` });
    assert.equal((await mentionsOf(dan)).length, 1);
    const edited = await server.api('PUT', `/api/posts/${post.id}`, {
      token: ana.token, body: multipart(articleFields({ content: `For @dan_w and @eve_w. ${BODY}` })),
    });
    assert.equal(edited.status, 200);
    assert.equal((await mentionsOf(dan)).length, 1, 'already told');
    assert.equal((await mentionsOf(eve)).length, 1);

    const draft = await server.api('POST', '/api/posts', {
      token: ana.token, body: multipart({ ...articleFields({ content: `Soon, @dan_w. ${BODY}` }), draft: 'true' }),
    });
    assert.equal(draft.status, 201);
    assert.match(draft.body.content_html, /class="mention">@dan_w</, 'a draft links its mentions too');
    await server.api('PUT', `/api/posts/${draft.body.id}`, { token: ana.token, body: multipart(articleFields({ content: `Soon, @dan_w and @eve_w. ${BODY}` })) });
    assert.equal((await mentionsOf(dan)).length, 1, 'nobody is told of a draft');
    assert.equal((await mentionsOf(eve)).length, 1);
    const published = await server.api('POST', `/api/posts/${draft.body.id}/publish`, { token: ana.token, json: {} });
    assert.equal(published.status, 200);
    assert.equal((await mentionsOf(dan)).length, 2, 'published: every name it mentions is news');
    assert.equal((await mentionsOf(eve)).length, 2);
  });

  it('a user who muted the writer is not told; at most 10 are told per text', async () => {
    const writer = await createUser(server, { username: 'many_w' });
    const named = await Promise.all(Array.from({ length: 12 }, (_, i) => createUser(server, { username: `named${i}_w` })));
    const muted = await server.api('PUT', `/api/users/me/mutes/users/${writer.id}`, { token: named[0]!.token });
    assert.equal(muted.status, 200);
    await createPost(server, writer, { content: `${named.map((u) => `@${u.username}`).join(' ')} ${BODY}` });
    const told = await Promise.all(named.map(async (u) => (await mentionsOf(u)).length));
    assert.deepEqual(told, [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0], 'the muter skipped, the next ten told, the twelfth not');
  });

  it('comments are Markdown too, and mention as articles do (PostgreSQL writes them in a transaction then)', async () => {
    const fay = await createUser(server, { username: 'fay_w' });
    const post = await createPost(server, ana);
    const plain = await server.api('POST', `/api/posts/${post.id}/comments`, { token: bob.token, json: { content: 'So *good*.' } });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.content_html, '<p>So <em>good</em>.</p>\n');
    const mentioning = await server.api('POST', `/api/posts/${post.id}/comments`, { token: bob.token, json: { content: 'Agreed, @fay_w?' } });
    assert.equal(mentioning.body.content_html, '<p>Agreed, <a href="/beatnik/fay_w" class="mention">@fay_w</a>?</p>\n');
    const [notice] = await mentionsOf(fay);
    assert.equal(notice.message, `Bob.W mentioned you in "${post.title}"`);
    const article = (await server.api('GET', `/api/posts/${post.id}`)).body;
    assert.equal(article.comments_count, 2, 'the counter moved on either path');
    const listed = (await server.api('GET', `/api/posts/${post.id}/comments`)).body;
    assert.deepEqual(listed.map((c: { content_html: string }) => c.content_html), [plain.body.content_html, mentioning.body.content_html]);
    const edited = await server.api('PUT', `/api/comments/${mentioning.body.id}`, { token: bob.token, json: { content: 'Agreed, @fay_w and @cleo-w?' } });
    assert.match(edited.body.content_html, /class="mention">@cleo-w</);
    assert.equal((await mentionsOf(fay)).length, 1, 'an edit tells only the names it adds');
    assert.equal((await mentionsOf(cleo)).filter((n: { message: string }) => n.message.startsWith('Bob.W')).length, 1);
  });

  it('POST /api/preview: what the server would store, signed in only, within the limit', async () => {
    const text = `Hi @bob.w, see https://example.com. ${BODY}`;
    const preview = await server.api('POST', '/api/preview', { token: ana.token, json: { content: text } });
    assert.equal(preview.status, 200);
    const post = await createPost(server, ana, { content: text });
    assert.deepEqual(preview.body, { content_html: post.content_html });
    assert.equal((await server.api('POST', '/api/preview', { json: { content: 'x' } })).status, 401);
    const long = await server.api('POST', '/api/preview', { token: ana.token, json: { content: 'x'.repeat(10_001) } });
    assert.deepEqual([long.status, long.body], [400, { detail: 'Text cannot exceed 10,000 characters' }]);
    const notText = await server.api('POST', '/api/preview', { token: ana.token, json: { content: 5 } });
    assert.deepEqual([notText.status, notText.body], [400, { detail: 'content must be text' }]);
  });
});

describe('POST /api/preview is throttled (RATE_LIMITS=on)', () => {
  let limited: TestServer;
  before(async () => { limited = await startTestServer({ env: { RATE_LIMITS: 'on' } }); });
  after(async () => { await limited?.stop(); });

  it('30 previews a minute per account, then 429 with when to retry', async () => {
    const writer = await createUser(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      statuses.push((await limited.api('POST', '/api/preview', { token: writer.token, json: { content: `draft ${i}` } })).status);
    }
    assert.deepEqual(statuses, [...Array(30).fill(200), 429]);
  });
});
