// Feeds (DESIGN.md, Reach: pages, feeds, search): the site's, an author's and a hashtag's newest
// active articles as RSS 2.0, Atom 1.0 and JSON Feed 1.1, read back with real parsers the way feed
// readers read them, with every link absolute from PUBLIC_URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CompiledQuery } from 'kysely';
import Parser from 'rss-parser';
import { createUser, multipart, samplePng, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { apiFrom } from './from-address.ts';
import { decodeEntities, parseXml, textOf } from './xml.ts';
import { htmlText } from '../../shared/html-text.ts';

const PUBLIC_URL = 'https://paper.example';
const INDEX = '<!doctype html><title>Beatnik</title><p>the app</p>';

const HOSTILE_TITLE = 'Tags <script>alert(1)</script> & ]]> twice ]]>';
const P1 = 'First <script>alert("x")</script> & "quotes" ]]> end.';
const P1_LINE2 = "A second line ]]> of it, isn't it?";
const P2 = `Second paragraph & more <b>bold</b>. ${'Filler words to reach the length. '.repeat(5).trim()}`;
const HOSTILE_CONTENT = `${P1}\n${P1_LINE2}\n\n${P2}`;

let server: TestServer;
let clientDir: string;
let john: TestUser;
let ana: TestUser;
let hostile: any;
let pictured: any;
let archived: any;

before(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'beatnik-client-'));
  writeFileSync(path.join(clientDir, 'index.html'), INDEX);
  server = await startTestServer({ clientDir, env: { PUBLIC_URL } });
  john = await createUser(server, { username: 'john.doe' });
  ana = await createUser(server, { username: 'ana' });
  archived = await createPost(server, ana, { title: 'An archived piece nobody should see', hashtags: ['jazz'] });
  assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: ana.token })).status, 200);
  for (let i = 0; i < 21; i += 1) await createPost(server, ana, { hashtags: ['filler'] });
  pictured = await createPost(server, john, { title: 'A picture of the harbour at dawn', hashtags: ['jazz', 'photo'] }, await samplePng());
  hostile = await createPost(server, john, { title: HOSTILE_TITLE, content: HOSTILE_CONTENT, hashtags: ['jazz', 'Hostile'] });
});
after(async () => {
  await server.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

interface Fetched { status: number; headers: Headers; text: string }

async function get(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Fetched> {
  const res = await fetch(server.url + urlPath, { method, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function rss(urlPath: string): Promise<any> {
  const res = await get(urlPath);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
  return parseXml(res.text).rss;
}

async function atom(urlPath: string): Promise<any> {
  const res = await get(urlPath);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
  return parseXml(res.text).feed;
}

async function jsonFeed(urlPath: string): Promise<any> {
  const res = await get(urlPath);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('content-type'), 'application/feed+json; charset=utf-8');
  return JSON.parse(res.text);
}

const postUrl = (post: { id: number }) => `${PUBLIC_URL}/post/${post.id}`;
const itemFor = (items: any[], post: { id: number }, link: (item: any) => string) => {
  const found = items.find((item) => link(item) === postUrl(post));
  assert.ok(found, `no item links to ${postUrl(post)}`);
  return found;
};
const atomLink = (entry: any) => entry.link.find((l: any) => !l['@rel'] || l['@rel'] === 'alternate')['@href'];
const newestFirst = async (query = '') => ((await server.api('GET', `/api/posts${query}`)).body.posts as any[]);
/** The article as a reader sees the feed's HTML: paragraphs and line breaks back to text. */
/** A feed's HTML read back as text (shared/html-text.ts, as excerpts read the stored HTML). */
const asText = (html: string) => htmlText(html);

describe('the site feed', () => {
  test('RSS 2.0: channel title, link and description; each item a title, link, guid and pubDate; the 20 newest active articles of GET /api/posts', async () => {
    const doc = await rss('/feed.xml');
    assert.equal(doc['@version'], '2.0');
    const channel = doc.channel;
    assert.equal(textOf(channel.title), 'Beatnik');
    assert.equal(textOf(channel.link), `${PUBLIC_URL}/`);
    assert.ok(textOf(channel.description)!.length > 0);
    const latest = await newestFirst();
    assert.equal(latest.length, 20);
    assert.deepEqual(channel.item.map((i: any) => textOf(i.link)), latest.map(postUrl), 'same articles, same order');
    for (const [i, item] of channel.item.entries()) {
      assert.equal(textOf(item.title), latest[i].title);
      assert.equal(textOf(item.guid), textOf(item.link));
      assert.equal(item.guid['@isPermaLink'], 'true');
      assert.equal(textOf(item.pubDate), new Date(latest[i].created_at).toUTCString());
      assert.ok(textOf(item['content:encoded'])!.startsWith('<p>'));
    }
    assert.ok(!channel.item.some((i: any) => textOf(i.link) === postUrl(archived)), 'an archived article is in no feed');
  });

  test('Atom 1.0: feed id, title, updated and self link; each entry an id, title, updated, link, published and author', async () => {
    const feed = await atom('/feed.atom');
    assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
    assert.equal(textOf(feed.id), `${PUBLIC_URL}/`);
    assert.equal(textOf(feed.title), 'Beatnik');
    const latest = await newestFirst();
    const newestChange = latest.map((p) => p.updated_at).sort().at(-1);
    assert.equal(textOf(feed.updated), newestChange);
    assert.ok(feed.link.some((l: any) => l['@rel'] === 'self' && l['@href'] === `${PUBLIC_URL}/feed.atom`));
    assert.deepEqual(feed.entry.map(atomLink), latest.map(postUrl));
    for (const [i, entry] of feed.entry.entries()) {
      assert.equal(textOf(entry.id), postUrl(latest[i]));
      assert.equal(decodeEntities(textOf(entry.title)!), latest[i].title);
      assert.equal(textOf(entry.updated), latest[i].updated_at);
      assert.equal(textOf(entry.published), latest[i].created_at);
      assert.equal(textOf(entry.author[0].name), latest[i].author_username);
    }
  });

  test('JSON Feed 1.1: version, title, feed and home URLs; each item an id, url, content_html and dates', async () => {
    const feed = await jsonFeed('/feed.json');
    assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(Object.keys(feed)[0], 'version', 'the version comes first');
    assert.equal(feed.title, 'Beatnik');
    assert.equal(feed.home_page_url, `${PUBLIC_URL}/`);
    assert.equal(feed.feed_url, `${PUBLIC_URL}/feed.json`);
    const latest = await newestFirst();
    assert.deepEqual(feed.items.map((i: any) => i.id), latest.map(postUrl));
    for (const [i, item] of feed.items.entries()) {
      assert.equal(item.url, item.id);
      assert.equal(item.title, latest[i].title);
      assert.equal(typeof item.content_html, 'string');
      assert.equal(typeof item.summary, 'string');
      assert.equal(item.date_published, latest[i].created_at);
      assert.equal(item.date_modified, latest[i].updated_at);
    }
  });

  test('hostile text (<script>, &, quotes, two ]]>) comes out as text in every format', async () => {
    const channel = (await rss('/feed.xml')).channel;
    const item = itemFor(channel.item, hostile, (i) => textOf(i.link)!);
    assert.equal(textOf(item.title), HOSTILE_TITLE, 'an RSS title is text, as typed');
    assert.equal(textOf(item['content:encoded']), hostile.content_html, 'the stored rendering, as the page shows it');
    assert.equal(asText(textOf(item['content:encoded'])!), HOSTILE_CONTENT);
    assert.ok(!textOf(item['content:encoded'])!.includes('<script'));
    assert.ok(!textOf(item.description)!.includes('<script'));

    const entry = itemFor((await atom('/feed.atom')).entry, hostile, atomLink);
    assert.equal(entry.title['@type'], 'html');
    assert.equal(decodeEntities(textOf(entry.title)!), HOSTILE_TITLE, 'an Atom title is escaped HTML');
    assert.equal(asText(textOf(entry.content)!), HOSTILE_CONTENT);

    const json = itemFor((await jsonFeed('/feed.json')).items, hostile, (i) => i.url);
    assert.equal(json.title, HOSTILE_TITLE);
    assert.equal(json.content_html, hostile.content_html);
    assert.match(json.content_html, /^<p>First &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &quot;quotes&quot; \]\]&gt; end\.<br \/>\n/);
    assert.equal(json.summary.includes('<script>'), true, 'a JSON Feed summary is plain text');
  });

  test('characters XML cannot carry (U+FFFE, U+FFFF) are left out, never breaking a feed', async () => {
    const odd = await createPost(server, john, {
      title: 'Odd characters \uFFFE\uFFFF inside a headline',
      content: `Odd \uFFFF characters. ${'Enough words to make an article long enough. '.repeat(4)}`,
    });
    const item = itemFor((await rss('/beatnik/john.doe/feed.xml')).channel.item, odd, (i) => textOf(i.link)!);
    assert.equal(textOf(item.title), 'Odd characters  inside a headline');
    itemFor((await atom('/beatnik/john.doe/feed.atom')).entry, odd, atomLink);
    await server.api('DELETE', `/api/posts/${odd.id}`, { token: john.token });
  });

  test('the image: its absolute URL, image/jpeg and its size in bytes', async () => {
    const image = await fetch(server.url + pictured.image);
    assert.equal(image.status, 200);
    const bytes = (await image.arrayBuffer()).byteLength;
    const url = PUBLIC_URL + pictured.image;

    const item = itemFor((await rss('/feed.xml')).channel.item, pictured, (i) => textOf(i.link)!);
    assert.deepEqual(
      [item.enclosure['@url'], item.enclosure['@type'], item.enclosure['@length']],
      [url, 'image/jpeg', String(bytes)],
    );
    const entry = itemFor((await atom('/feed.atom')).entry, pictured, atomLink);
    const enclosure = entry.link.find((l: any) => l['@rel'] === 'enclosure');
    assert.deepEqual([enclosure['@href'], enclosure['@type'], enclosure['@length']], [url, 'image/jpeg', String(bytes)]);
    const json = itemFor((await jsonFeed('/feed.json')).items, pictured, (i) => i.url);
    assert.equal(json.image, url);
    assert.deepEqual(json.attachments, [{ url, mime_type: 'image/jpeg', size_in_bytes: bytes }]);
    // The text opens with the picture and its alt text (the title's, as none was given).
    assert.ok(json.content_html.startsWith(`<p><img src="${url}" alt="Illustration for “A picture of the harbour at dawn”" /></p>\n<p>`),
      json.content_html.slice(0, 200));
    assert.ok(textOf(item['content:encoded'])!.startsWith(`<p><img src="${url}" alt=`));
    const plain = itemFor((await jsonFeed('/feed.json')).items, hostile, (i) => i.url);
    assert.equal(plain.image, undefined);
  });

  test('the author (name and page) and the hashtags as categories', async () => {
    const johnPage = `${PUBLIC_URL}/beatnik/john.doe`;
    const item = itemFor((await rss('/feed.xml')).channel.item, pictured, (i) => textOf(i.link)!);
    assert.equal(textOf(item['dc:creator']), 'john.doe');
    assert.deepEqual(item.category.map(textOf), ['jazz', 'photo']);
    const entry = itemFor((await atom('/feed.atom')).entry, pictured, atomLink);
    assert.deepEqual(entry.author.map((a: any) => [textOf(a.name), textOf(a.uri)]), [['john.doe', johnPage]]);
    assert.deepEqual(entry.category.map((c: any) => c['@term']), ['jazz', 'photo']);
    const json = itemFor((await jsonFeed('/feed.json')).items, pictured, (i) => i.url);
    assert.deepEqual(json.authors, [{ name: 'john.doe', url: johnPage }]);
    assert.deepEqual(json.tags, ['jazz', 'photo']);
  });
});

describe('per author and per hashtag', () => {
  test("an author's feed holds only their articles, found by their name in any case", async () => {
    const feed = await jsonFeed('/beatnik/john.doe/feed.json');
    assert.equal(feed.title, 'john.doe · Beatnik');
    assert.equal(feed.home_page_url, `${PUBLIC_URL}/beatnik/john.doe`);
    assert.equal(feed.feed_url, `${PUBLIC_URL}/beatnik/john.doe/feed.json`);
    assert.deepEqual(feed.authors, [{ name: 'john.doe', url: `${PUBLIC_URL}/beatnik/john.doe` }]);
    const own = (await server.api('GET', `/api/users/${john.id}/posts?limit=20`)).body.posts;
    assert.deepEqual(feed.items.map((i: any) => i.id), own.map(postUrl));
    assert.deepEqual((await jsonFeed('/beatnik/JOHN.DOE/feed.json')).items.map((i: any) => i.id), own.map(postUrl));
    const channel = (await rss('/beatnik/ana/feed.xml')).channel;
    assert.equal(channel.item.length, 20);
    assert.ok(channel.item.every((i: any) => textOf(i['dc:creator']) === 'ana'));
    assert.ok(!channel.item.some((i: any) => textOf(i.link) === postUrl(archived)));
    const selfLinks = (await atom('/beatnik/John.Doe/feed.atom')).link.filter((l: any) => l['@rel'] === 'self');
    assert.deepEqual(selfLinks.map((l: any) => l['@href']), [`${PUBLIC_URL}/beatnik/john.doe/feed.atom`], 'the canonical name');
  });

  test('an unknown author is a 404 with a clear detail, in every format', async () => {
    for (const file of ['feed.xml', 'feed.atom', 'feed.json']) {
      const res = await server.api('GET', `/beatnik/nobody-here/${file}`);
      assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }], file);
    }
  });

  test("a hashtag's feed holds its active articles, the tag cleaned as GET /api/posts?hashtag= cleans it", async () => {
    const tagged = await newestFirst('?hashtag=jazz');
    const channel = (await rss('/hashtag/jazz/feed.xml')).channel;
    assert.equal(textOf(channel.title), '#jazz · Beatnik');
    assert.deepEqual(channel.item.map((i: any) => textOf(i.link)), tagged.map(postUrl));
    assert.ok(channel.item.every((i: any) => i.category.map(textOf).includes('jazz')));
    assert.ok(!channel.item.some((i: any) => textOf(i.link) === postUrl(archived)));
    const cleaned = await jsonFeed('/hashtag/%23JAZZ/feed.json');
    assert.deepEqual(cleaned.items.map((i: any) => i.id), tagged.map(postUrl));
    assert.equal(cleaned.feed_url, `${PUBLIC_URL}/hashtag/jazz/feed.json`);
    assert.equal(cleaned.home_page_url, `${PUBLIC_URL}/ranks?hashtag=jazz`);
  });

  test('a tag no article ever carried, or none could, is a 404; one whose articles are gone is an empty feed', async () => {
    const unknown = ['nosuchtag', 'a%20b', 'x'.repeat(21), '%3Cscript%3E', '%23', '%20', 'caf%C3%A9%3F'];
    for (const tag of unknown) {
      for (const file of ['feed.xml', 'feed.atom', 'feed.json']) {
        const res = await server.api('GET', `/hashtag/${tag}/${file}`);
        assert.deepEqual([res.status, res.body], [404, { detail: 'Hashtag not found' }], `${tag}/${file}`);
      }
    }
    const lonely = await createPost(server, ana, { hashtags: ['lonely'] });
    await server.api('PUT', `/api/posts/${lonely.id}/archive`, { token: ana.token });
    assert.deepEqual((await jsonFeed('/hashtag/lonely/feed.json')).items, []);
    assert.equal((await rss('/hashtag/lonely/feed.xml')).channel.item, undefined);
    assert.equal((await atom('/hashtag/lonely/feed.atom')).entry, undefined);
  });
});

describe('routing', () => {
  test('/beatnik/john.doe is the app, /beatnik/john.doe/feed.xml the feed; other files under it are the app', async () => {
    for (const url of ['/beatnik/john.doe', '/beatnik/john.doe/feed.rss', '/beatnik/john.doe/FEED.XML', '/hashtag/jazz']) {
      const res = await get(url);
      assert.deepEqual([res.status, res.text], [200, INDEX], url);
    }
    const feed = await get('/beatnik/john.doe/feed.xml');
    assert.equal(feed.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
  });
});

describe('caching and conditional GETs', () => {
  const FEEDS = ['/feed.xml', '/feed.atom', '/feed.json', '/beatnik/john.doe/feed.xml', '/hashtag/jazz/feed.json'];

  test('ETag and Last-Modified; If-None-Match and If-Modified-Since answer 304; HEAD answers the same headers', async () => {
    const newest = (posts: any[]) => new Date(posts.map((p) => p.updated_at).sort().at(-1)).toUTCString();
    const lastChanges: Record<string, string> = {
      '/feed.xml': newest(await newestFirst()),
      '/beatnik/john.doe/feed.xml': newest((await server.api('GET', `/api/users/${john.id}/posts?limit=20`)).body.posts),
      '/hashtag/jazz/feed.json': newest(await newestFirst('?hashtag=jazz')),
    };
    // As a feed reader revalidates (fetch() would otherwise send "Cache-Control: no-cache").
    const revalidating = { 'cache-control': 'max-age=0' };
    for (const url of FEEDS) {
      const first = await get(url);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      assert.match(etag, /^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/, url);
      if (lastChanges[url]) assert.equal(lastModified, lastChanges[url], url);
      assert.equal(first.headers.get('cache-control'), 'no-cache');
      const byTag = await get(url, { ...revalidating, 'if-none-match': etag });
      assert.deepEqual([byTag.status, byTag.text], [304, ''], url);
      const byDate = await get(url, { ...revalidating, 'if-modified-since': lastModified });
      assert.equal(byDate.status, 304, url);
      const older = new Date(Date.parse(lastModified) - 3_600_000).toUTCString();
      assert.equal((await get(url, { ...revalidating, 'if-modified-since': older })).status, 200, url);
      assert.equal((await get(url, { ...revalidating, 'if-none-match': 'W/"other"', 'if-modified-since': lastModified })).status, 200,
        'If-None-Match decides when both are sent');
      const head = await get(url, {}, 'HEAD');
      assert.deepEqual([head.status, head.text, head.headers.get('etag')], [200, '', etag], url);
    }
  });

  test('feeds are served from the cache until a write, which shows in every feed', async () => {
    const filler = (await newestFirst()).find((p) => p.author_username === 'ana')!;
    server.ctx.readCache!.invalidate(); // a copy made now, not one about to reach its 5 s
    const before = await get('/feed.json');
    await sqlRows(server.ctx.db, 'UPDATE posts SET title = ? WHERE id = ?', 'Retitled behind the server\'s back', filler.id);
    const cached = await get('/feed.json');
    assert.equal(cached.headers.get('etag'), before.headers.get('etag'), 'the cached feed');
    assert.ok(!cached.text.includes('Retitled behind'));

    const fresh = await createPost(server, ana, { title: 'Fresh news that every feed should show', hashtags: ['jazz'] });
    for (const url of ['/feed.json', '/beatnik/ana/feed.json', '/hashtag/jazz/feed.json']) {
      const feed = await jsonFeed(url);
      assert.equal(feed.items[0].id, postUrl(fresh), url);
    }
    const after = await get('/feed.json');
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    assert.ok(after.text.includes('Retitled behind'));
  });

  test("an edit moves the item's updated date and the feed's Last-Modified; its publication date stays", async () => {
    const edited = await server.api('PUT', `/api/posts/${pictured.id}`, {
      token: john.token, body: multipart(articleFields({ title: 'A picture of the harbour, retouched', hashtags: ['jazz', 'photo'] })),
    });
    assert.equal(edited.status, 200);
    const res = await get('/beatnik/john.doe/feed.json');
    const item = itemFor(JSON.parse(res.text).items, pictured, (i) => i.url);
    assert.deepEqual([item.title, item.date_published, item.date_modified],
      ['A picture of the harbour, retouched', pictured.created_at, edited.body.updated_at]);
    assert.equal(res.headers.get('last-modified'), new Date(edited.body.updated_at).toUTCString());
    const entry = itemFor((await atom('/beatnik/john.doe/feed.atom')).entry, pictured, atomLink);
    assert.deepEqual([textOf(entry.published), textOf(entry.updated)], [pictured.created_at, edited.body.updated_at]);
  });
});

test('every URL in a feed is absolute from PUBLIC_URL, whatever Host the request names', async () => {
  const headers = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
  for (const url of ['/feed.xml', '/feed.atom', '/feed.json', '/beatnik/john.doe/feed.atom', '/hashtag/jazz/feed.xml']) {
    const res = await apiFrom('127.0.0.1', server.url, 'GET', url, { headers });
    const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    assert.ok(!body.includes('evil.example'), url);
    const urls = [...body.matchAll(/(?:https?:)?\/\/[^\s"'<>\]]+/g)].map((m) => m[0]);
    assert.ok(urls.length > 5, url);
    const foreign = urls.filter((u) => !u.startsWith(`${PUBLIC_URL}/`)
      && !['http://www.w3.org/2005/Atom', 'http://purl.org/dc/elements/1.1/', 'http://purl.org/rss/1.0/modules/content/',
        'https://validator.w3.org/feed/docs/rss2.html', 'https://jsonfeed.org/version/1.1'].includes(u));
    assert.deepEqual(foreign, [], url);
  }
});

// Each after the site's settings (its name, in the title), one query kept in the read cache, which
// the test empties before each feed.
test('a feed is read in one query for the articles with their authors and hashtags (two for an author: the name first)', async () => {
  const db = server.ctx.db;
  const executor = db.getExecutor();
  const built: CompiledQuery[] = [];
  let run = 0;
  // Every query run passes transformResult, one compiled once (prepared-query.ts) included.
  (server.ctx as { db: unknown }).db = db.withPlugin({
    transformQuery(args) {
      built.push(executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => { run += 1; return args.result; },
  });
  try {
    for (const [url, queries] of [['/feed.xml', 1 + 1], ['/beatnik/john.doe/feed.atom', 1 + 2], ['/hashtag/jazz/feed.json', 1 + 1]] as const) {
      server.ctx.readCache?.invalidate();
      built.length = 0;
      run = 0;
      assert.equal((await get(url)).status, 200);
      assert.equal(run, queries, `${url}:\n${built.map((q) => q.sql).join('\n')}`);
    }
  } finally {
    (server.ctx as { db: unknown }).db = db;
  }
});

test('a feed reader subscribes (rss-parser over HTTP), and an item it lists opens as a page', async () => {
  const reader = new Parser();
  const feed = await reader.parseURL(`${server.url}/feed.xml`);
  assert.equal(feed.title, 'Beatnik');
  assert.equal(feed.items.length, 20);
  const item = feed.items.find((i) => i.link === postUrl(hostile))!;
  assert.equal(item.title, HOSTILE_TITLE);
  assert.equal(item.creator, 'john.doe');
  assert.equal(item.pubDate, new Date(hostile.created_at).toUTCString());
  assert.deepEqual(item.categories, ['jazz', 'hostile']);
  // PUBLIC_URL's host would lead the reader here: follow the link's path on this server.
  for (const entry of feed.items.slice(0, 3)) {
    const page = await fetch(server.url + new URL(entry.link!).pathname);
    assert.equal(page.status, 200, entry.link);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  }
  const atomFeed = await reader.parseURL(`${server.url}/beatnik/john.doe/feed.atom`);
  assert.equal(atomFeed.title, 'john.doe · Beatnik');
  assert.deepEqual(atomFeed.items.map((i) => i.link), (await server.api('GET', `/api/users/${john.id}/posts`)).body.posts.map(postUrl));
});
