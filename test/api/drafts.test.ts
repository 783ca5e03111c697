// Drafts (DESIGN.md, Accounts, drafts…): saved with a valid title alone, seen by their author and
// admins only, counted nowhere until published; publishing applies every rule of SPEC §5 and then
// counts the article like any new one. Who may do what is in permissions.test.ts.
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import {
  createAdmin, createUser, multipart, samplePng, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { pageTemplateDir } from './html.ts';

const TITLE = 'Title must be between 20 and 80 characters';
const CONTENT = 'Content must be between 150 and 10,000 characters';
const HASHTAG_COUNT = 'You must include between 1 and 3 hashtags';
const LONG_ENOUGH = 'Every word of this article was weighed twice before it went to press, and it shows. '.repeat(2);

let server: TestServer;
let templateDir: string;
let ana: TestUser;
let ben: TestUser;
let admin: TestUser;

before(async () => {
  templateDir = pageTemplateDir();
  server = await startTestServer({ clientDir: templateDir });
  ana = await createUser(server);
  ben = await createUser(server);
  admin = await createAdmin(server);
});
after(async () => {
  await server.stop();
  rmSync(templateDir, { recursive: true, force: true });
});

let n = 0;
/** A valid draft title, different each time. */
const draftTitle = () => `A draft headline, still rough, take ${++n}`;

function saveDraft(author: TestUser, fields: Record<string, string> = {}, image?: Buffer) {
  return server.api('POST', '/api/posts', {
    token: author.token,
    body: multipart({ title: draftTitle(), draft: 'true', ...fields }, image ? { field: 'image', data: image } : undefined),
  });
}

async function draftOf(author: TestUser, fields: Record<string, string> = {}, image?: Buffer): Promise<any> {
  const res = await saveDraft(author, fields, image);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

function publish(author: TestUser, id: number, fields?: Record<string, string>, image?: Buffer) {
  const body = fields || image ? multipart(fields ?? {}, image ? { field: 'image', data: image } : undefined) : undefined;
  return server.api('POST', `/api/posts/${id}/publish`, { token: author.token, ...(body ? { body } : {}) });
}

const uploads = () => readdirSync(path.join(server.dataDir, 'uploads')).sort().join(',');
const countPosts = () => sqlNumber(server.ctx.db, 'SELECT count(*) FROM posts');

/** Everything a draft's publication could move, as stored. */
async function stateOf(postId: number): Promise<Record<string, string>> {
  const rows = async (text: string, ...params: unknown[]) => JSON.stringify(await sqlRows(server.ctx.db, text, ...params));
  return {
    post: await rows('SELECT * FROM posts WHERE id = ?', postId),
    author: await rows('SELECT u.* FROM users u JOIN posts p ON p.author_id = u.id WHERE p.id = ?', postId),
    tags: await rows('SELECT tag FROM post_hashtags WHERE post_id = ? ORDER BY tag', postId),
    hashtags: await rows('SELECT tag, posts_count FROM hashtags ORDER BY tag'),
    search: await rows('SELECT post_id FROM post_search WHERE post_id = ?', postId),
    ranks: await rows('SELECT post_id FROM post_ranks WHERE post_id = ?', postId),
    order: await rows('SELECT post_id FROM post_rank_order WHERE post_id = ?', postId),
    uploads: uploads(),
  };
}

describe('saving a draft', () => {
  test('a valid title is enough: no content, no hashtags, no image; nothing counts it', async () => {
    const before = (await server.api('GET', `/api/users/${ana.id}`)).body;
    const draft = await draftOf(ana);
    assert.equal(draft.status, 'draft');
    assert.deepEqual([draft.content, draft.hashtags, draft.image, draft.archived], ['', [], null, false]);
    assert.deepEqual([draft.visits, draft.ratings_count, draft.comments_count], [0, 0, 0]);
    assert.equal(draft.author_id, ana.id);
    const after = (await server.api('GET', `/api/users/${ana.id}`)).body;
    assert.deepEqual([after.posts_count, after.mojo], [before.posts_count, before.mojo]);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_search WHERE post_id = ?', draft.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_ranks WHERE post_id = ?', draft.id), 0);
  });

  test('partial content and hashtags are kept, cleaned as an article\'s; a JSON body with draft: true works too', async () => {
    const draft = await draftOf(ana, { content: '  Only a start.  ', hashtags: '["#Drafty", "drafty", ""]' });
    assert.deepEqual([draft.content, draft.hashtags], ['Only a start.', ['drafty']]);
    const json = await server.api('POST', '/api/posts', { token: ana.token, json: { title: draftTitle(), draft: true, hashtags: [] } });
    assert.equal(json.status, 201, JSON.stringify(json.body));
    assert.equal(json.body.status, 'draft');
    // draft=false is an article, with every rule.
    const article = await server.api('POST', '/api/posts', { token: ana.token, body: multipart({ title: draftTitle(), draft: 'false' }) });
    assert.deepEqual([article.status, article.body], [400, { detail: CONTENT }]);
  });

  const invalid: Array<[string, Record<string, string>, string]> = [
    ['no title', { title: '' }, TITLE],
    ['a short title', { title: 'Too short' }, TITLE],
    ['a long title', { title: 'x'.repeat(81) }, TITLE],
    ['content over 10,000 characters', { content: 'y'.repeat(10_001) }, CONTENT],
    ['four hashtags', { hashtags: '["a","b","c","d"]' }, HASHTAG_COUNT],
    ['hashtags that are not a list', { hashtags: 'jazz,blues' }, HASHTAG_COUNT],
    ['a long hashtag', { hashtags: '["abcdefghijklmnopqrstu"]' }, 'Each hashtag can have at most 20 characters'],
    ['a hashtag with a space', { hashtags: '["free jazz"]' }, 'Hashtags can only contain letters, numbers, hyphens and underscores'],
    ['a draft flag that is neither true nor false', { draft: 'maybe' }, 'draft must be true or false'],
  ];
  for (const [name, fields, detail] of invalid) {
    test(`400 for ${name}: "${detail}", nothing stored`, async () => {
      const [posts, files] = [await countPosts(), uploads()];
      const res = await saveDraft(ana, fields, await samplePng());
      assert.deepEqual([res.status, res.body], [400, { detail }]);
      assert.deepEqual([await countPosts(), uploads()], [posts, files]);
    });
  }

  test('PUT edits a draft with a draft\'s rules and it stays a draft; an article keeps every rule', async () => {
    const draft = await draftOf(ana, { content: 'First lines.' });
    const edited = await server.api('PUT', `/api/posts/${draft.id}`, {
      token: ana.token, body: multipart({ title: 'A better draft headline, second go', content: 'First lines, and more.', hashtags: '["beat"]' }),
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual([edited.body.status, edited.body.title, edited.body.content, edited.body.hashtags],
      ['draft', 'A better draft headline, second go', 'First lines, and more.', ['beat']]);
    // Even `draft: false` on an edit does not publish: only /publish does.
    const kept = await server.api('PUT', `/api/posts/${draft.id}`, { token: ana.token, body: multipart({ title: draftTitle(), draft: 'false' }) });
    assert.deepEqual([kept.status, kept.body.status, kept.body.content, kept.body.hashtags], [200, 'draft', '', []]);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM hashtags WHERE tag = ?', 'beat'), 0, 'a draft\'s tag is counted nowhere');

    const before = await stateOf(draft.id);
    const bad = await server.api('PUT', `/api/posts/${draft.id}`, { token: ana.token, body: multipart({ title: 'Short' }) });
    assert.deepEqual([bad.status, bad.body], [400, { detail: TITLE }]);
    assert.deepEqual(await stateOf(draft.id), before);

    const article = await createPost(server, ana);
    const partial = await server.api('PUT', `/api/posts/${article.id}`, { token: ana.token, body: multipart({ title: draftTitle() }) });
    assert.deepEqual([partial.status, partial.body], [400, { detail: CONTENT }]);
  });

  test('a draft\'s image is stored in black and white, replaced by an edit and removed with the draft', async () => {
    const draft = await draftOf(ana, {}, await samplePng(300, 200));
    assert.match(draft.image, /^\/uploads\/article-[0-9a-f]{32}\.jpg$/);
    const file = path.basename(draft.image);
    assert.equal((await sharp(path.join(server.dataDir, 'uploads', file)).metadata()).channels, 1);
    const edited = await server.api('PUT', `/api/posts/${draft.id}`, {
      token: ana.token, body: multipart({ title: draft.title }, { field: 'image', data: await samplePng(200, 100) }),
    });
    assert.equal(edited.status, 200);
    assert.ok(!uploads().includes(file), 'the replaced image is gone');
    assert.ok(uploads().includes(path.basename(edited.body.image)));
    const deleted = await server.api('DELETE', `/api/posts/${draft.id}`, { token: ana.token });
    assert.equal(deleted.status, 200);
    assert.ok(!uploads().includes(path.basename(edited.body.image)));
    assert.equal((await server.api('GET', `/api/posts/${draft.id}`, { token: ana.token })).status, 404);
  });
});

describe('a draft is its author\'s and the admins\' alone', () => {
  test('read by its author and admins, 404 to anyone else, and never a visit', async () => {
    const draft = await draftOf(ana, { content: LONG_ENOUGH, hashtags: '["jazz"]' });
    for (const [who, token, status] of [['ana', ana.token, 200], ['an admin', admin.token, 200], ['ben', ben.token, 404], ['a visitor', undefined, 404]] as const) {
      const res = await server.api('GET', `/api/posts/${draft.id}`, { token });
      assert.equal(res.status, status, who);
      if (status === 200) assert.equal(res.body.status, 'draft');
      else assert.deepEqual(res.body, { detail: 'Article not found' });
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT visits FROM posts WHERE id = ?', draft.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_visits WHERE post_id = ?', draft.id), 0);
    const page = await fetch(`${server.url}/post/${draft.id}`);
    assert.equal(page.status, 404);
    assert.ok(!(await page.text()).includes(draft.title));
  });

  test('in no list, feed, sitemap, ranking, search, count or stat: everything public reads the same before and after', async () => {
    const solo = await createUser(server, { username: 'only_drafts' });
    await createPost(server, ana, { hashtags: ['jazz'] });
    const publicReads = [
      '/api/posts', '/api/posts?hashtag=zanzibar', '/api/frontpage', '/api/ranks', '/api/ranks?criteria=visits',
      '/api/ranks?hashtag=zanz', '/api/ranks?time_period=24h', '/api/hashtags', '/api/hashtags?search=zanz',
      '/api/authors', `/api/users/${solo.id}`, `/api/users/${solo.id}/posts`, '/api/users/by-username/only_drafts',
      `/api/users/${solo.id}/posts?archived=true`, '/api/search?q=quokka', '/api/search?q=zanzibar',
      '/feed.json', '/feed.xml', '/feed.atom', '/beatnik/only_drafts/feed.json', '/hashtag/zanzibar/feed.json', '/sitemap.xml',
    ];
    const asAdmin = ['/api/admin/posts', '/api/admin/posts?search=quokka', '/api/admin/stats', '/api/admin/users?search=only_drafts'];
    const read = async () => {
      const answers: Record<string, string> = {};
      for (const url of publicReads) {
        const res = await fetch(server.url + url);
        answers[url] = `${res.status} ${await res.text()}`;
      }
      for (const url of asAdmin) answers[url] = JSON.stringify((await server.api('GET', url, { token: admin.token })).body);
      const { draft_posts: drafts, ...stats } = (await server.api('GET', '/api/users/me/stats', { token: solo.token })).body;
      answers['/api/users/me/stats'] = JSON.stringify(stats);
      return { answers, drafts };
    };
    const before = await read();

    const draft = await draftOf(solo, { title: 'The quokka question, a draft for later', content: LONG_ENOUGH, hashtags: '["zanzibar"]' },
      await samplePng());
    const afterDraft = await read();
    for (const url of Object.keys(before.answers)) assert.equal(afterDraft.answers[url], before.answers[url], url);
    assert.deepEqual([before.drafts, afterDraft.drafts], [0, 1]);
    assert.match(afterDraft.answers['/hashtag/zanzibar/feed.json']!, /^404 /, 'a tag only a draft carries names no feed');
    assert.match(afterDraft.answers['/api/search?q=quokka']!, /"total":0/);
    assert.deepEqual(await findCounterDrift(server.ctx.db), [], 'check-counters agrees');

    // The rendered pages do not show it either.
    for (const url of ['/', '/beatnik/only_drafts', '/ranks', '/authors', '/search?q=quokka', '/ranks?hashtag=zanzibar']) {
      const html = await (await fetch(server.url + url)).text();
      assert.ok(!html.includes('quokka question'), url);
    }
    // The author's own list of drafts, and an admin's look at it, have it.
    for (const token of [solo.token, admin.token]) {
      const list = await server.api('GET', `/api/users/${solo.id}/posts?status=draft`, { token });
      assert.deepEqual([list.status, list.body.total, list.body.posts.map((p: any) => p.id)], [200, 1, [draft.id]]);
    }
  });

  test('an author\'s drafts: newest first, searchable and sortable, never mixed with their articles', async () => {
    const writer = await createUser(server);
    const article = await createPost(server, writer);
    const first = await draftOf(writer, { title: 'The first draft of the winter season', content: 'Snow.' });
    const second = await draftOf(writer, { title: 'The second draft of the winter season', content: 'Sleet.' });
    const list = (query: string) => server.api('GET', `/api/users/${writer.id}/posts?${query}`, { token: writer.token });
    const drafts = await list('status=draft');
    assert.deepEqual([drafts.body.total, drafts.body.posts.map((p: any) => p.id)], [2, [second.id, first.id]]);
    assert.ok(drafts.body.posts.every((p: any) => p.status === 'draft'));
    assert.deepEqual((await list('status=draft&search=sleet')).body.posts.map((p: any) => p.id), [second.id]);
    assert.deepEqual((await list('status=draft&sort_by=oldest')).body.posts.map((p: any) => p.id), [first.id, second.id]);
    // archived=true adds nothing to drafts: a draft is never archived.
    assert.equal((await list('status=draft&archived=true')).body.total, 2);
    const published = await list('status=published');
    assert.deepEqual([published.body.total, published.body.posts.map((p: any) => p.id)], [1, [article.id]]);
    assert.deepEqual((await list('')).body.posts.map((p: any) => p.status), ['published']);
    const unknown = await list('status=deleted');
    assert.deepEqual([unknown.status, unknown.body], [400, { detail: 'status must be one of: published, draft' }]);
  });
});

describe('publishing a draft', () => {
  // Each rule of SPEC §5, broken by the draft as stored or by the form sent with the publication.
  const rules: Array<{ name: string; draft?: Record<string, string>; form?: Record<string, string>; image?: () => Buffer; status: number; detail: string }> = [
    { name: 'no content yet', draft: { hashtags: '["jazz"]' }, status: 400, detail: CONTENT },
    { name: 'content under 150 characters', draft: { content: 'y'.repeat(149), hashtags: '["jazz"]' }, status: 400, detail: CONTENT },
    { name: 'no hashtags yet', draft: { content: LONG_ENOUGH }, status: 400, detail: HASHTAG_COUNT },
    { name: 'a title under 20 characters sent', form: { title: 'Too short' }, status: 400, detail: TITLE },
    { name: 'a title over 80 characters sent', form: { title: 'x'.repeat(81) }, status: 400, detail: TITLE },
    { name: 'content over 10,000 characters sent', form: { content: 'y'.repeat(10_001) }, status: 400, detail: CONTENT },
    { name: 'content of spaces sent', form: { content: ' '.repeat(200) }, status: 400, detail: CONTENT },
    { name: 'four hashtags sent', form: { hashtags: '["a","b","c","d"]' }, status: 400, detail: HASHTAG_COUNT },
    { name: 'no hashtags sent', form: { hashtags: '[]' }, status: 400, detail: HASHTAG_COUNT },
    { name: 'a long hashtag sent', form: { hashtags: '["abcdefghijklmnopqrstu"]' }, status: 400, detail: 'Each hashtag can have at most 20 characters' },
    { name: 'an image that is not one', image: () => Buffer.from('not an image at all'), status: 400, detail: 'Please select a valid image file' },
    { name: 'an image over 5MB', image: () => Buffer.alloc(5 * 1024 * 1024 + 1, 7), status: 413, detail: 'Image cannot exceed 5MB' },
  ];
  for (const rule of rules) {
    test(`${rule.status} for ${rule.name}: "${rule.detail}", the draft left as it was`, async () => {
      const draft = await draftOf(ana, rule.draft ?? { content: LONG_ENOUGH, hashtags: '["jazz"]' });
      const before = await stateOf(draft.id);
      const res = await publish(ana, draft.id, rule.form, rule.image?.());
      assert.deepEqual([res.status, res.body], [rule.status, { detail: rule.detail }]);
      assert.deepEqual(await stateOf(draft.id), before);
    });
  }

  test('a published draft is an article like any other, dated at its publication, in every list and count at once', async () => {
    const writer = await createUser(server, { username: 'late_bloomer' });
    const draft = await draftOf(writer, { title: 'The wombat chronicles, now in print', content: LONG_ENOUGH, hashtags: '["wombats", "Print"]' });
    await sqlRows(server.ctx.db, 'UPDATE posts SET created_at = ?, updated_at = ? WHERE id = ?', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', draft.id);
    // Fill the caches: what they hold must not outlive the publication.
    for (const url of ['/api/posts', '/api/frontpage', '/api/search?q=wombat', '/sitemap.xml', '/feed.json', '/api/hashtags']) await fetch(server.url + url);

    const publishedAt = new Date().toISOString();
    const res = await publish(writer, draft.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'published');
    assert.ok(res.body.created_at >= publishedAt, `${res.body.created_at} is the publication time`);
    assert.equal(res.body.updated_at, res.body.created_at);
    assert.deepEqual(res.body.hashtags, ['wombats', 'print']);

    assert.equal((await server.api('GET', '/api/posts?limit=1')).body.posts[0].id, draft.id);
    assert.ok((await server.api('GET', '/api/frontpage')).body.posts.some((p: any) => p.id === draft.id));
    assert.ok((await server.api('GET', '/api/ranks?limit=100')).body.posts.some((p: any) => p.id === draft.id));
    assert.deepEqual((await server.api('GET', '/api/search?q=wombat')).body.posts.map((p: any) => p.id), [draft.id]);
    assert.deepEqual((await server.api('GET', '/api/hashtags?search=wombats')).body, [{ hashtag: 'wombats', count: 1 }]);
    assert.ok((await (await fetch(`${server.url}/sitemap.xml`)).text()).includes(`/post/${draft.id}<`));
    assert.ok((await (await fetch(`${server.url}/feed.json`)).text()).includes('The wombat chronicles'));
    assert.ok((await server.api('GET', '/api/authors?search=late_bloomer')).body.authors.some((a: any) => a.id === writer.id));
    const author = (await server.api('GET', `/api/users/${writer.id}`)).body;
    assert.equal(author.posts_count, 1);
    assert.equal((await fetch(`${server.url}/post/${draft.id}`)).status, 200);
    assert.deepEqual(await findCounterDrift(server.ctx.db), [], 'check-counters agrees');

    // From now on it is read, rated and commented like any article.
    // The page's visitor above was the first visit, Ben is the second.
    assert.equal((await server.api('GET', `/api/posts/${draft.id}`, { token: ben.token })).body.visits, 2);
    assert.equal((await server.api('POST', `/api/posts/${draft.id}/rate`, { token: ben.token, json: { rating: 5 } })).status, 200);
    assert.equal((await server.api('POST', `/api/posts/${draft.id}/comments`, { token: ben.token, json: { content: 'At last.' } })).status, 201);
    assert.ok((await server.api('GET', `/api/users/${writer.id}`)).body.mojo > author.mojo);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('the form sent with it is what is published, its image included; a second publication is a 409 that changes nothing', async () => {
    const draft = await draftOf(ana, { content: 'Half a thought.' }, await samplePng());
    const oldImage = path.basename(draft.image);
    const res = await publish(ana, draft.id, { content: LONG_ENOUGH, hashtags: '["Blues"]' }, await samplePng(640, 480));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.status, res.body.content, res.body.hashtags, res.body.title], ['published', LONG_ENOUGH.trim(), ['blues'], draft.title]);
    assert.notEqual(path.basename(res.body.image), oldImage);
    assert.ok(!uploads().includes(oldImage), 'the draft\'s image was replaced');

    const before = await stateOf(draft.id);
    const again = await publish(ana, draft.id);
    assert.deepEqual([again.status, again.body], [409, { detail: 'This article is already published' }]);
    assert.deepEqual(await stateOf(draft.id), before);
  });

  test('two publications at once: one publishes, the other is a 409, and the article counts once', async () => {
    const writer = await createUser(server);
    const draft = await draftOf(writer, { content: LONG_ENOUGH, hashtags: '["twice"]' });
    const answers = await Promise.all([publish(writer, draft.id), publish(writer, draft.id)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    assert.equal((await server.api('GET', `/api/users/${writer.id}`)).body.posts_count, 1);
    assert.deepEqual((await server.api('GET', '/api/hashtags?search=twice')).body, [{ hashtag: 'twice', count: 1 }]);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('an edit and a publication at once: a published article never holds a draft\'s content', async () => {
    const writer = await createUser(server);
    for (let round = 0; round < 5; round += 1) {
      const draft = await draftOf(writer, { content: LONG_ENOUGH, hashtags: '["race"]' });
      const [published, edited] = await Promise.all([
        publish(writer, draft.id),
        server.api('PUT', `/api/posts/${draft.id}`, { token: writer.token, body: multipart({ title: draft.title, content: 'Cut short.' }) }),
      ]);
      const stored = (await server.api('GET', `/api/posts/${draft.id}`, { token: writer.token })).body;
      if (stored.status === 'published') {
        assert.equal(published.status, 200);
        assert.equal(stored.content, LONG_ENOUGH.trim(), `round ${round}: the edit did not reach the article`);
        // After the publication an edit is an article's, checked by every rule (or it came too late).
        assert.ok([400, 409].includes(edited.status), `round ${round}: ${edited.status} ${JSON.stringify(edited.body)}`);
      } else {
        // The edit went first: the draft is too short to publish.
        assert.deepEqual([edited.status, published.status, stored.content], [200, 400, 'Cut short.']);
      }
    }
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a draft is not archived: 409, and it stays a draft', async () => {
    const draft = await draftOf(ana);
    const before = await stateOf(draft.id);
    const res = await server.api('PUT', `/api/posts/${draft.id}/archive`, { token: ana.token });
    assert.deepEqual([res.status, res.body], [409, { detail: 'A draft cannot be archived: publish it or delete it' }]);
    assert.deepEqual(await stateOf(draft.id), before);
  });
});
