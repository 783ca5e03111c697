// /sitemap.xml and /robots.txt (DESIGN.md, Reach: pages, feeds, search): every active article and
// every author with one, with lastmod, absolute from PUBLIC_URL; past 50,000 URLs a sitemap index.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, multipart, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { apiFrom } from './from-address.ts';
import { parseXml, textOf } from './xml.ts';

const PUBLIC_URL = 'https://paper.example';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

let server: TestServer;
let ana: TestUser;
let ben: TestUser;
let quiet: TestUser;
let shelved: TestUser;
let kept: any[];
let archived: any;

before(async () => {
  server = await startTestServer({ env: { PUBLIC_URL } });
  ana = await createUser(server, { username: 'ana.smith' });
  ben = await createUser(server, { username: 'ben' });
  quiet = await createUser(server, { username: 'quiet' });
  shelved = await createUser(server, { username: 'shelved' });
  kept = [await createPost(server, ana), await createPost(server, ana), await createPost(server, ben)];
  archived = await createPost(server, shelved);
  assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: shelved.token })).status, 200);
});
after(async () => { await server.stop(); });

async function sitemap(urlPath = '/sitemap.xml'): Promise<{ status: number; headers: Headers; doc: any; text: string }> {
  const res = await fetch(server.url + urlPath);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, doc: res.status === 200 ? parseXml(text) : undefined };
}

/** loc → lastmod of a urlset. */
const entriesOf = (doc: any): Map<string, string | undefined> =>
  new Map((doc.urlset.url ?? []).map((u: any) => [textOf(u.loc)!, textOf(u.lastmod)]));

describe('robots.txt', () => {
  test('allows everything but the API and the signed-in screens, and names the sitemap by its absolute URL', async () => {
    const res = await apiFrom('127.0.0.1', server.url, 'GET', '/robots.txt', { headers: { host: 'evil.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.body, [
      'User-agent: *',
      'Disallow: /api/',
      'Disallow: /admin',
      'Disallow: /write',
      'Disallow: /profile',
      'Disallow: /settings',
      'Disallow: /notifications',
      'Allow: /',
      '',
      `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
      '',
    ].join('\n'));
  });
});

describe('sitemap.xml', () => {
  test('lists every active article and every author with one, each with its lastmod, and nothing else', async () => {
    const { headers, doc } = await sitemap();
    assert.equal(headers.get('content-type'), 'application/xml; charset=utf-8');
    assert.equal(doc.urlset['@xmlns'], SITEMAP_NS);
    const entries = entriesOf(doc);
    const active: any[] = (await server.api('GET', '/api/posts?limit=100')).body.posts;
    const expected = new Map<string, string>(active.map((p) => [`${PUBLIC_URL}/post/${p.id}`, p.updated_at]));
    for (const post of active) {
      // An author's page is as new as their newest active article.
      const page = `${PUBLIC_URL}/beatnik/${encodeURIComponent(post.author_username)}`;
      if (!expected.has(page) || expected.get(page)! < post.created_at) expected.set(page, post.created_at);
    }
    assert.deepEqual(entries, expected);
    for (const post of kept) assert.ok(entries.has(`${PUBLIC_URL}/post/${post.id}`));
    assert.ok(entries.has(`${PUBLIC_URL}/beatnik/ana.smith`));
    assert.ok(!entries.has(`${PUBLIC_URL}/post/${archived.id}`), 'an archived article');
    assert.ok(!entries.has(`${PUBLIC_URL}/beatnik/shelved`), 'an author whose only article is archived');
    for (const lastmod of entries.values()) assert.match(lastmod!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'W3C datetime');
  });

  test('a write shows at once: a new article and its author come, an edit moves lastmod, an archived article leaves with its author', async () => {
    const before = entriesOf((await sitemap()).doc);
    const fresh = await createPost(server, quiet);
    const edited = await server.api('PUT', `/api/posts/${kept[0].id}`, { token: ana.token, body: multipart(articleFields()) });
    assert.equal(edited.status, 200);
    const after = entriesOf((await sitemap()).doc);
    assert.equal(after.get(`${PUBLIC_URL}/post/${fresh.id}`), fresh.updated_at);
    assert.equal(after.get(`${PUBLIC_URL}/beatnik/quiet`), fresh.created_at);
    assert.equal(after.get(`${PUBLIC_URL}/post/${kept[0].id}`), edited.body.updated_at, 'an edit moves an article\'s lastmod');
    assert.equal(after.size, before.size + 2);

    await server.api('PUT', `/api/posts/${fresh.id}/archive`, { token: quiet.token });
    const archivedAgain = entriesOf((await sitemap()).doc);
    assert.equal(archivedAgain.has(`${PUBLIC_URL}/post/${fresh.id}`), false);
    assert.equal(archivedAgain.has(`${PUBLIC_URL}/beatnik/quiet`), false, 'an author without an active article leaves');
  });

  test('ETag: a revalidation answers 304 until something changes', async () => {
    const first = await fetch(`${server.url}/sitemap.xml`);
    const etag = first.headers.get('etag')!;
    const revalidate = { 'if-none-match': etag, 'cache-control': 'max-age=0' };
    assert.equal((await fetch(`${server.url}/sitemap.xml`, { headers: revalidate })).status, 304);
    await createPost(server, ben);
    assert.equal((await fetch(`${server.url}/sitemap.xml`, { headers: revalidate })).status, 200);
  });

  test('URLs are absolute from PUBLIC_URL and escaped, whatever Host the request names', async () => {
    // A name from before today's username rule, with characters XML and URLs must escape.
    const legacy = await createUser(server);
    await sqlRows(server.ctx.db, 'UPDATE users SET username = ? WHERE id = ?', "ben&jerry's <3", legacy.id);
    await createPost(server, legacy); // a write: the cached sitemap goes
    const res = await apiFrom<string>('127.0.0.1', server.url, 'GET', '/sitemap.xml',
      { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    const text = res.body;
    assert.ok(!text.includes('evil.example'));
    const entries = entriesOf(parseXml(text));
    assert.ok(entries.has(`${PUBLIC_URL}/beatnik/${encodeURIComponent("ben&jerry's <3")}`));
    assert.ok([...entries.keys()].every((loc) => loc.startsWith(`${PUBLIC_URL}/`)));
  });

  test('/sitemap-1.xml is the one file while there is one; a file past the last is a 404', async () => {
    const root = await sitemap();
    const first = await sitemap('/sitemap-1.xml');
    assert.deepEqual(entriesOf(first.doc), entriesOf(root.doc));
    for (const url of ['/sitemap-2.xml', '/sitemap-0.xml', '/sitemap-999999999.xml']) {
      const res = await sitemap(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(JSON.parse(res.text), { detail: 'No such sitemap file' });
    }
  });
});

test('past 50,000 URLs /sitemap.xml is a sitemap index, and its files hold every URL once', async (t) => {
  const bulk = await startTestServer({ env: { PUBLIC_URL } });
  try {
    const author = await createUser(bulk, { username: 'prolific' });
    const published = await createPost(bulk, author);
    const rows = 50_001;
    // Written straight into the database: 50,001 articles through the API would take minutes.
    await sqlRows(bulk.ctx.db, `
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1})
      INSERT INTO posts (author_id, title, content, hashtags, created_at, updated_at)
      SELECT ${author.id}, 'A bulk headline for the sitemap', 'Bulk content', '[]', ?, ? FROM n`,
    published.created_at, published.updated_at);
    await sqlRows(bulk.ctx.db, 'UPDATE users SET posts_count = ? WHERE id = ?', rows, author.id);
    const total = await sqlNumber(bulk.ctx.db, 'SELECT count(*) FROM posts WHERE archived = 0') + 1;
    assert.equal(total, rows + 1, 'the author and every article');

    const started = performance.now();
    const index = await fetch(`${bulk.url}/sitemap.xml`);
    const indexDoc = parseXml(await index.text());
    assert.equal(indexDoc.sitemapindex['@xmlns'], SITEMAP_NS);
    const files = indexDoc.sitemapindex.sitemap.map((s: any) => textOf(s.loc));
    assert.deepEqual(files, [`${PUBLIC_URL}/sitemap-1.xml`, `${PUBLIC_URL}/sitemap-2.xml`]);
    // Every file read before any is parsed: parsing 50,000 URLs holds this process's event loop
    // (the server's too) for seconds on a busy machine, and a request sent after that on the kept-
    // alive socket meets the server closing it as idle (ECONNRESET).
    const texts: string[] = [];
    for (const file of files) {
      const res = await fetch(bulk.url + new URL(file).pathname, { headers: { 'accept-encoding': 'gzip' } });
      texts.push(await res.text());
    }
    const pastTheLast = await fetch(`${bulk.url}/sitemap-3.xml`);
    await pastTheLast.arrayBuffer();
    const seen = new Set<string>();
    let largest = 0;
    for (const text of texts) {
      const urls = entriesOf(parseXml(text));
      largest = Math.max(largest, urls.size);
      for (const loc of urls.keys()) {
        assert.ok(!seen.has(loc), `${loc} twice`);
        seen.add(loc);
      }
    }
    t.diagnostic(`index and both files of ${total} URLs in ${Math.round(performance.now() - started)} ms`);
    assert.equal(largest, 50_000);
    assert.equal(seen.size, total);
    assert.ok(seen.has(`${PUBLIC_URL}/beatnik/prolific`));
    assert.ok(seen.has(`${PUBLIC_URL}/post/${published.id}`));
    assert.equal(pastTheLast.status, 404);
  } finally {
    await bulk.stop();
  }
});
