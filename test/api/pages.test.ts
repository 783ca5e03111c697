// The public pages the server renders (DESIGN.md, Reach; server/pages/): the app's HTML with the
// page's first reads embedded, the head a crawler or a link preview reads, real 404s, visits
// counted as the API counts them, and the rendered HTML cached like the public lists.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { authorArticlesRead, authorRead } from '../../client/pages/AuthorPage.tsx';
import { mojoLedgerRead } from '../../client/components/reader/MojoLedger.tsx';
import { homeReads } from '../../client/pages/FrontPage.tsx';
import { MODERATION_LEDE, moderationRead } from '../../client/pages/ModerationPage.tsx';
import { articleReads } from '../../client/pages/PostPage.tsx';
import { pulseReads } from '../../client/pages/PulsePage.tsx';
import { SEARCH_LEDE, searchRead } from '../../client/pages/SearchPage.tsx';
import { voicesRead } from '../../client/pages/VoicesPage.tsx';
import { parsePulseQuery } from '../../client/components/reader/pulseQuery.ts';
import { endpoints } from '../../client/endpoints.ts';
import { PAGE_DATA_ID, type PageData } from '../../client/page-data.ts';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { siteDescription } from '../../shared/site.ts';
import { DEFAULT_SITE } from '../../client/state/site.ts';
import { createAdmin, createUser, samplePng, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { apiFrom } from './from-address.ts';
import { attr, pageTemplateDir, parsePage, textOf, type ParsedPage } from './html.ts';

const PUBLIC_URL = 'http://paper.example.org';
let server: TestServer;
let templateDir: string;
let author: TestUser;
let reader: TestUser;

before(async () => {
  templateDir = pageTemplateDir();
  server = await startTestServer({ clientDir: templateDir, env: { PUBLIC_URL } });
  author = await createUser(server, { bio: 'Writes about jazz clubs and the night bus home.' });
  reader = await createUser(server);
});
after(async () => {
  await server.stop();
  rmSync(templateDir, { recursive: true, force: true });
});

interface Rendered {
  status: number;
  headers: Headers;
  html: string;
  page: ParsedPage;
  data: PageData | undefined;
}

async function open(path: string, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<Rendered> {
  const res = await apiFrom<string>(from, server.url, 'GET', path, { headers });
  const html = String(res.body);
  const page = parsePage(html);
  const script = page.all('script').find((el) => attr(el, 'id') === PAGE_DATA_ID);
  return { status: res.status, headers: res.headers, html, page, data: script ? JSON.parse(textOf(script)) as PageData : undefined };
}

const visitsOf = (postId: number) => sqlNumber(server.ctx.db, 'SELECT visits FROM posts WHERE id = ?', postId);
const h1Of = (page: ParsedPage) => page.all('h1').map(textOf);

describe('each public page', () => {
  test('is rendered with its content and the answers of its first reads, as the page reads them', async () => {
    const post = await createPost(server, author, { title: 'Midnight at the Five Spot, again', hashtags: ['jazz', 'nights'] });
    const comment = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'I was there too.' } });
    assert.equal(comment.status, 201);
    // Ranked by a refresh, so that the article's rank is a 200 like its other reads.
    await recomputeRanks(server.ctx.db);
    server.ctx.readCache?.invalidate();
    const pages: Array<[string, string[], string]> = [
      ['/', Object.values(homeReads()).map((c) => c.url), 'Midnight at the Five Spot, again'],
      [`/post/${post.id}`, [...Object.values(articleReads(String(post.id))).map((c) => c.url), endpoints.comments.list(post.id).url],
        'I was there too.'],
      ['/ranks?hashtag=JAZ&criteria=visits', Object.values(pulseReads(parsePulseQuery('?hashtag=JAZ&criteria=visits'))).map((c) => c.url),
        'Midnight at the Five Spot, again'],
      ['/authors', [voicesRead().url], author.username],
      [`/beatnik/${author.username}`, [authorRead(author.username).url, authorArticlesRead(author.id).url, mojoLedgerRead(author.id).url], 'Midnight at the Five Spot, again'],
      ['/search?q=%20five%20SPO%20', [searchRead('five SPO').url], 'Midnight at the Five Spot, again'],
      ['/search', [], 'What are you looking for?'],
      ['/moderation', [moderationRead(1).url], 'The editors have not had to step in yet.'],
    ];
    for (const [path, reads, shows] of pages) {
      const { status, headers, page, data } = await open(path);
      assert.equal(status, 200, path);
      assert.match(headers.get('content-type') ?? '', /^text\/html; charset=utf-8/, path);
      assert.equal(headers.get('cache-control'), 'no-cache', path);
      const root = page.all('div').find((el) => attr(el, 'id') === 'root')!;
      assert.ok(textOf(root).includes(shows), `${path} shows “${shows}”`);
      assert.deepEqual(Object.keys(data!.reads).sort(), [...reads].sort(), `${path}: its first reads`);
      for (const [url, answer] of Object.entries(data!.reads)) assert.equal(answer.status, 200, `${path}: ${url}`);
      assert.equal(page.all('noscript').length, 0, `${path} needs no JavaScript`);
    }
  });

  test("embeds exactly what GET of each address answers a visitor", async () => {
    const post = await createPost(server, author, { hashtags: ['bebop'] });
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'Exactly.' } });
    for (const path of ['/', `/post/${post.id}`, '/ranks?hashtag=bebop&time_period=7d', '/authors', `/beatnik/${author.username}`,
      '/search?q=bebop', '/search?q=caf%C3%A9%07%20%22AND%20*(&skip=5', '/moderation']) {
      const { data } = await open(path);
      for (const [url, answer] of Object.entries(data!.reads)) {
        // The page counted this reader's visit already: reading the article again counts none.
        const api = await apiFrom('127.0.0.1', server.url, 'GET', url);
        assert.deepEqual({ status: answer.status, body: answer.body }, { status: api.status, body: api.body }, `${path}: ${url}`);
      }
    }
  });

  test('/search takes any query: never an error, the words shown as text', async () => {
    // A NUL or bytes that are not UTF-8 name nothing: the not-found page (test/api/refused-text.test.ts).
    for (const q of ['%00', '%C3']) assert.equal((await open(`/search?q=${q}`)).status, 404, q);
    const queries = ['%07', '%E2%80%A8%3C%2Fscript%3E%3Cb%3E', encodeURIComponent('x'.repeat(1000)), '%F0%9F%8E%B7%20%22', 'a&q=b', '((AND*'];
    for (const q of queries) {
      const path = `/search?q=${q}`;
      const { status, page, data } = await open(path);
      assert.equal(status, 200, path);
      assert.equal(page.all('b').length, 0, `${path}: no markup from the query`);
      for (const [url, answer] of Object.entries(data!.reads)) assert.equal(answer.status, 200, `${path}: ${url}`);
    }
  });

  test('the signed-in screens stay the client-rendered shell', async () => {
    for (const path of ['/write', '/profile', '/settings', '/notifications', '/admin', '/login', '/register', '/Settings/']) {
      const { status, data, page } = await open(path);
      assert.equal(status, 200, path);
      assert.equal(data, undefined, path);
      assert.equal(page.title, 'Beatnik', path);
    }
  });

  test('a path no route takes is the not-found page with a 404, files and feeds as they were', async () => {
    for (const path of ['/nowhere', '/no/such/page', '/post', '/beatnik', '/posts/1', '/%E2%82%AC', '/write/more']) {
      const { status, data, page } = await open(path);
      assert.equal(status, 404, path);
      assert.equal(page.title, 'Page not found · Beatnik', path);
      assert.deepEqual(h1Of(page).slice(-1), ['Page not found'], path);
      assert.deepEqual(data?.reads, {}, path);
      assert.equal(page.links('canonical').length, 0, `${path}: no canonical address for a page that is not there`);
    }
    const head = await fetch(`${server.url}/nowhere`, { method: 'HEAD' });
    assert.deepEqual([head.status, await head.text()], [404, '']);
    for (const path of ['/index.html', '/robots.txt', '/feed.xml', '/sitemap.xml']) {
      assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
    }
  });

  test('routes match as in the browser: any letter case, a trailing slash, a decoded name', async () => {
    const { status, page } = await open('/RANKS/');
    assert.equal(status, 200);
    assert.deepEqual(h1Of(page).slice(-1), ['The Pulse']);
    const named = await createUser(server, { username: 'ana.lu-2' });
    const profile = await open('/beatnik/ANA%2ELU-2/');
    assert.equal(profile.status, 200);
    assert.ok(h1Of(profile.page).includes('ana.lu-2'));
    assert.deepEqual(profile.page.links('canonical').map((el) => attr(el, 'href')), [`${PUBLIC_URL}/beatnik/${named.username}`]);
  });

  test('answers HEAD without a body, and a conditional GET with 304', async () => {
    const head = await fetch(`${server.url}/authors`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    // Over plain HTTP: fetch marks a request with If-None-Match `Cache-Control: no-cache`, as the Fetch standard says.
    const etag = (await open('/authors')).headers.get('etag')!;
    assert.ok(etag);
    assert.equal((await apiFrom('127.0.0.1', server.url, 'GET', '/authors', { headers: { 'if-none-match': etag } })).status, 304);
  });

  test('is sent compressed when the reader accepts it', async () => {
    const res = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers.get('content-encoding'), 'br');
    assert.match(await res.text(), /<div id="root"><a class="skip-link"/);
  });
});

describe('the head of each page', () => {
  const feeds = (page: ParsedPage) => page.links('alternate').map((el) => [attr(el, 'type'), attr(el, 'href')]);
  const siteFeeds = [
    ['application/rss+xml', `${PUBLIC_URL}/feed.xml`], ['application/atom+xml', `${PUBLIC_URL}/feed.atom`],
    ['application/feed+json', `${PUBLIC_URL}/feed.json`],
  ];
  const jsonLd = (page: ParsedPage) => page.all('script').filter((el) => attr(el, 'type') === 'application/ld+json')
    .map((el) => JSON.parse(textOf(el)) as Record<string, any>);

  test('lists: their title, description, canonical address, Open Graph, card and the site feeds', async () => {
    const lists: Array<[string, string, string, string]> = [
      ['/', 'FrontPage', siteDescription(DEFAULT_SITE), '/'],
      ['/ranks?criteria=visits&x=1&hashtag=%23Jazz', 'The Pulse', 'Articles are ranked by their visits, their ratings and the activity in their comments.',
        '/ranks?hashtag=Jazz&criteria=visits'],
      ['/authors?sort=whatever', 'Voices', 'The beatniks who write this paper. Find a voice you like and follow it.', '/authors'],
      ['/search?skip=3&q=+Night+bus+', 'Search: Night bus', SEARCH_LEDE, '/search?q=Night+bus'],
      ['/search?q=', 'Search', SEARCH_LEDE, '/search'],
      ['/moderation?page=1&x=2', 'Moderation log', MODERATION_LEDE, '/moderation'],
      ['/moderation?page=3', 'Moderation log', MODERATION_LEDE, '/moderation?page=3'],
    ];
    for (const [path, title, description, canonical] of lists) {
      const { page } = await open(path);
      assert.equal(page.title, `${title} · Beatnik`, path);
      assert.deepEqual(page.meta('description'), [description], path);
      assert.deepEqual(page.links('canonical').map((el) => attr(el, 'href')), [`${PUBLIC_URL}${canonical}`], path);
      assert.deepEqual(page.meta('og:site_name'), ['Beatnik'], path);
      assert.deepEqual(page.meta('og:type'), ['website'], path);
      assert.deepEqual(page.meta('og:title'), [title], path);
      assert.deepEqual(page.meta('og:description'), [description], path);
      assert.deepEqual(page.meta('og:url'), [`${PUBLIC_URL}${canonical}`], path);
      assert.deepEqual(page.meta('og:image'), [], path);
      assert.deepEqual(page.meta('twitter:card'), ['summary'], path);
      assert.deepEqual(jsonLd(page), [], path);
      assert.deepEqual(feeds(page), siteFeeds, path);
      for (const el of [...page.all('meta'), ...page.all('link')]) assert.ok(page.inHead(el), `${path}: in <head>`);
    }
  });

  test('an article: its own title, 160 characters of it, its picture, dates, author and tags, as Article', async () => {
    const content = `${'Bird plays the changes faster than the band can follow them. '.repeat(6)}The end.`;
    const post = await createPost(server, author, { title: 'Ornithology, played at a tempo nobody expected', content, hashtags: ['bebop', 'bird'] },
      await samplePng(800, 600));
    const { page } = await open(`/post/${post.id}`);
    const url = `${PUBLIC_URL}/post/${post.id}`;
    const description = page.meta('description')[0]!;
    assert.equal(page.title, `${post.title} · Beatnik`);
    assert.ok(description.length <= 160 && description.endsWith('…') && content.startsWith(description.slice(0, -1).trimEnd()), description);
    assert.deepEqual(page.links('canonical').map((el) => attr(el, 'href')), [url]);
    assert.deepEqual(page.meta('og:type'), ['article']);
    assert.deepEqual(page.meta('og:title'), [post.title]);
    assert.deepEqual(page.meta('og:description'), [description]);
    assert.deepEqual(page.meta('og:url'), [url]);
    assert.deepEqual(page.meta('og:image'), [`${PUBLIC_URL}${post.image}`]);
    assert.deepEqual(page.meta('article:published_time'), [post.created_at]);
    assert.deepEqual(page.meta('article:author'), [`${PUBLIC_URL}/beatnik/${author.username}`]);
    assert.deepEqual(page.meta('article:tag'), ['bebop', 'bird']);
    assert.deepEqual(page.meta('twitter:card'), ['summary_large_image']);
    assert.deepEqual(jsonLd(page), [{
      '@context': 'https://schema.org', '@type': 'Article', headline: post.title, description,
      datePublished: post.created_at, dateModified: post.updated_at,
      author: { '@type': 'Person', name: author.username, url: `${PUBLIC_URL}/beatnik/${author.username}` },
      image: [`${PUBLIC_URL}${post.image}`], keywords: 'bebop, bird', url, mainEntityOfPage: url,
      publisher: { '@type': 'Organization', name: 'Beatnik' },
    }]);
    assert.deepEqual(feeds(page), siteFeeds);
  });

  test('an article without a picture has the small card and no image', async () => {
    const post = await createPost(server, author);
    const { page } = await open(`/post/${post.id}`);
    assert.deepEqual(page.meta('og:image'), []);
    assert.deepEqual(page.meta('twitter:card'), ['summary']);
    assert.equal(jsonLd(page)[0]!.image, undefined);
  });

  test("an author: their name, their bio, their picture and feeds, as ProfilePage", async () => {
    const withAvatar = await createUser(server, { bio: 'Poems from the back of the bus.' });
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(await samplePng(200, 200))], { type: 'image/png' }), 'me.png');
    const profile = await server.api('PUT', '/api/users/me', { token: withAvatar.token, body: form });
    assert.equal(profile.status, 200);
    const { page } = await open(`/beatnik/${withAvatar.username}`);
    const url = `${PUBLIC_URL}/beatnik/${withAvatar.username}`;
    assert.equal(page.title, `${withAvatar.username} · Beatnik`);
    assert.deepEqual(page.meta('description'), ['Poems from the back of the bus.']);
    assert.deepEqual(page.links('canonical').map((el) => attr(el, 'href')), [url]);
    assert.deepEqual(page.meta('og:type'), ['profile']);
    assert.deepEqual(page.meta('og:title'), [withAvatar.username]);
    assert.deepEqual(page.meta('og:image'), [`${PUBLIC_URL}${profile.body.avatar}`]);
    assert.deepEqual(page.meta('twitter:card'), ['summary_large_image']);
    assert.deepEqual(jsonLd(page), [{
      '@context': 'https://schema.org', '@type': 'ProfilePage', url, dateCreated: profile.body.created_at,
      mainEntity: {
        '@type': 'Person', name: withAvatar.username, alternateName: `@${withAvatar.username}`, url,
        description: 'Poems from the back of the bus.', image: `${PUBLIC_URL}${profile.body.avatar}`,
      },
    }]);
    assert.deepEqual(feeds(page), [...siteFeeds, ['application/rss+xml', `${url}/feed.xml`],
      ['application/atom+xml', `${url}/feed.atom`], ['application/feed+json', `${url}/feed.json`]]);
  });

  test('every absolute address comes from PUBLIC_URL, never from the Host header', async () => {
    const post = await createPost(server, author, {}, await samplePng());
    const { html } = await open(`/post/${post.id}`, '127.0.0.1', { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    assert.ok(!html.includes('evil.example'));
    assert.ok(html.includes(`${PUBLIC_URL}/post/${post.id}`));
  });

  test('user text cannot end the data, the structured data or the head early', async () => {
    const hostile = '</script><!--<script>alert(1)</script> & "quotes" \u2028';
    const post = await createPost(server, author, { title: `A title holding ${hostile}`.slice(0, 80), content: `Content holding ${hostile} ${'x '.repeat(80)}` });
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: `A comment holding ${hostile}` } });
    const stored = (await server.api('GET', `/api/posts/${post.id}`)).body;
    const { page, data } = await open(`/post/${post.id}`);
    const scripts = page.all('script');
    assert.deepEqual(scripts.map((el) => attr(el, 'type')), ['application/ld+json', 'application/json', 'application/json'],
      'no script but the three data blocks: structured data, the page\'s answers, the site\'s settings');
    assert.equal(page.title, `${stored.title} · Beatnik`);
    assert.deepEqual(page.meta('og:title'), [stored.title]);
    assert.equal(jsonLd(page)[0]!.headline, stored.title);
    assert.equal((data!.reads[`/api/posts/${post.id}`]!.body as any).content, stored.content);
    const comments = (await server.api('GET', `/api/posts/${post.id}/comments`)).body;
    assert.equal((data!.reads[`/api/posts/${post.id}/comments`]!.body as any)[0].content, comments[0].content);
    assert.ok(comments[0].content.includes('</script><!--<script>'));
    assert.ok(page.all('h1').some((el) => textOf(el) === stored.title));
  });
});

describe('a missing or archived article, a missing author', () => {
  test('is a 404 with the page that says so, kept out of search engines', async () => {
    const archived = await createPost(server, author);
    assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token })).status, 200);
    const deleted = await createPost(server, author);
    assert.equal((await server.api('DELETE', `/api/posts/${deleted.id}`, { token: author.token })).status, 200);
    const missing: Array<[string, string]> = [
      ['/post/987654', 'Article not found'], ['/post/not-a-number', 'Article not found'], [`/post/${archived.id}`, 'Article not found'],
      [`/post/${deleted.id}`, 'Article not found'], ['/beatnik/nobody-goes-by-this', 'User not found'],
    ];
    for (const [path, title] of missing) {
      const { status, page, data } = await open(path);
      assert.equal(status, 404, path);
      assert.ok(h1Of(page).includes(title), `${path}: ${h1Of(page).join(', ')}`);
      assert.equal(page.title, `${title} · Beatnik`, path);
      assert.deepEqual(page.meta('robots'), ['noindex'], path);
      assert.deepEqual(page.links('canonical'), [], path);
      assert.equal(Object.values(data!.reads).find((a) => a.status === 404)?.status, 404, `${path}: the 404 is embedded too`);
    }
    assert.equal(await visitsOf(archived.id), 0, 'an archived article counts no visit');
  });
});

describe('visits', () => {
  test('rendering an article counts a visit as GET /api/posts/{id} does, from the cache too', async () => {
    const post = await createPost(server, author);
    assert.equal((await open(`/post/${post.id}`, '127.0.0.1')).status, 200);
    assert.equal(await visitsOf(post.id), 1);
    const again = await open(`/post/${post.id}`, '127.0.0.1');
    assert.equal(await visitsOf(post.id), 1, 'the same reader within 30 minutes counts once');
    assert.equal((await open(`/post/${post.id}`, '127.0.0.2')).html, again.html, 'from the cache');
    assert.equal(await visitsOf(post.id), 2, 'another reader counts, though the page came from the cache');
    assert.equal((await apiFrom('127.0.0.3', server.url, 'GET', `/api/posts/${post.id}`)).body.visits, 3);
    assert.equal((await open(`/post/${post.id}`, '127.0.0.3')).status, 200);
    assert.equal(await visitsOf(post.id), 3, 'a reader of the API who then opens the page counts once');
  });
});

describe('the rendered pages are cached', () => {
  test('until a write: a change behind the server shows only after one', async () => {
    const post = await createPost(server, author, { title: 'The headline as it was first written' });
    assert.ok((await open(`/post/${post.id}`)).html.includes('The headline as it was first written'));
    await server.ctx.db.updateTable('posts').set({ title: 'The headline changed behind the server' }).where('id', '=', post.id).execute();
    assert.ok((await open(`/post/${post.id}`)).html.includes('The headline as it was first written'), 'cached');
    assert.equal((await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'A write.' } })).status, 201);
    const fresh = await open(`/post/${post.id}`);
    assert.ok(fresh.html.includes('The headline changed behind the server'));
    assert.ok(fresh.html.includes('A write.'));
  });

  test('a 404 is not kept: the article shows once it exists for visitors again', async () => {
    const post = await createPost(server, author);
    await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    assert.equal((await open(`/post/${post.id}`)).status, 404);
    await server.ctx.db.updateTable('posts').set({ archived: 0 }).where('id', '=', post.id).execute();
    assert.equal((await open(`/post/${post.id}`)).status, 200);
  });
});

describe('/moderation', () => {
  // Runs last in this file: the earlier tests read the log while it is still empty.
  test('lists the acts with the admin, the reason and the time, never an email, and pages with plain links', async () => {
    const admin = await createAdmin(server, { username: 'the_desk' });
    const troll = await createUser(server, { username: 'troll_one' });
    const post = await createPost(server, troll, { title: 'An article nobody should read' });
    const as = (method: string, url: string, json?: unknown) => server.api(method, url, { token: admin.token, json });
    assert.equal((await as('DELETE', `/api/admin/delete-post/${post.id}?reason=Spam%20links`)).status, 200);
    assert.equal((await as('POST', '/api/admin/ban-user', { user_id: troll.id, ban_type: 'permanent', ban_reason: 'Spam' })).status, 200);

    const first = await open('/moderation');
    assert.equal(first.status, 200);
    const root = textOf(first.page.all('div').find((el) => attr(el, 'id') === 'root')!);
    assert.ok(root.includes('the_desk banned troll_one permanently.'), root);
    assert.ok(root.includes('the_desk removed the article “An article nobody should read” by troll_one.'), root);
    assert.ok(root.includes('Reason: Spam links'), root);
    assert.match(root, /\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC/);
    assert.ok(!first.html.includes('@example.com'), 'no email');
    assert.deepEqual(Object.keys(first.data!.reads), [moderationRead(1).url]);
    assert.equal(first.page.all('a').filter((el) => attr(el, 'href') === '/moderation?page=2').length, 0, 'one page: no paging');

    // 50 entries to a page: the next ones are a link away, read without JavaScript.
    for (let i = 0; i < 25; i++) {
      assert.equal((await as('POST', '/api/admin/update-user-level', { user_id: reader.id, level: 'admin' })).status, 200);
      assert.equal((await as('POST', '/api/admin/update-user-level', { user_id: reader.id, level: 'user' })).status, 200);
    }
    const full = await open('/moderation');
    assert.equal(full.page.all('li').filter((el) => attr(el, 'class') === 'moderation-entry').length, 50);
    const older = full.page.all('a').find((el) => textOf(el) === 'Older entries');
    assert.equal(older && attr(older, 'href'), '/moderation?page=2');
    const second = await open('/moderation?page=2');
    assert.equal(second.status, 200);
    assert.deepEqual(Object.keys(second.data!.reads), [moderationRead(2).url]);
    const secondRoot = textOf(second.page.all('div').find((el) => attr(el, 'id') === 'root')!);
    assert.ok(secondRoot.includes('the_desk removed the article “An article nobody should read” by troll_one.'), 'the oldest on page 2');
    assert.ok(secondRoot.includes('Page 2 of 2'));
    assert.equal(second.page.all('a').find((el) => textOf(el) === 'Newer entries') && 'found', 'found');
    assert.deepEqual(second.page.links('canonical').map((el) => attr(el, 'href')), [`${PUBLIC_URL}/moderation?page=2`]);
    const api = await server.api('GET', moderationRead(2).url);
    assert.deepEqual(second.data!.reads[moderationRead(2).url]!.body, api.body);
  });

  test('is cached for readers and renewed by the next moderation act', async () => {
    const admin = await createAdmin(server);
    const someone = await createUser(server, { username: 'quiet_one' });
    assert.ok(!(await open('/moderation')).html.includes('quiet_one'));
    await server.ctx.db.insertInto('moderation_log').values({
      admin_id: admin.id, action: 'unban', target_user_id: someone.id, created_at: new Date().toISOString(),
    }).execute();
    assert.ok(!(await open('/moderation')).html.includes('quiet_one'), 'cached: a write behind the server shows later');
    const banned = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: someone.id, ban_type: 'temporary', ban_reason: 'Cooling off', ban_until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    });
    assert.equal(banned.status, 200);
    const fresh = await open('/moderation');
    assert.ok(fresh.html.includes('banned <a'), 'the ban shows at once');
    assert.match(textOf(fresh.page.all('div').find((el) => attr(el, 'id') === 'root')!), /banned quiet_one for a time\.Until \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTCReason: Cooling off/);
    assert.ok(fresh.html.includes('lifted the ban on'), 'and what was written behind it');
  });
});
