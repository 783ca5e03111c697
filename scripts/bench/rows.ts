// The bench's rows, in the order of the report: the lists, an article read (counting a visit and
// not), The Pulse, the authors, the explained rank (at full load and at a steady rate), the mojo
// ledger, search, the writes (rating, commenting, publishing), the server-rendered pages and the mixed row, each measured against
// one running server on either database (measure.ts).
import type autocannon from 'autocannon';
import { rowRunner, type Bench, type Load, type Row } from './measure.ts';
import { RANK_ROW, RANK_STEADY, SEARCH_ROW } from './report.ts';

export const MIXED_ROW = 'mixed: GET /api/posts and /api/frontpage';
export const MIXED_RATES = { visits: 100, ratings: 20 };
/** What readers type, in turn on each connection: common words, two-word queries, unfinished words. */
const READERS_SEARCHES = ['coffee', 'jazz', 'rain on the harbor', 'typewri', 'the desert', 'bookshop', 'midnight radio', 'ne'];

export const PUBLISH_ROW = 'POST /api/posts (publishes)';
/** A new article as an author writes one (issue 28): Markdown with emphasis, a link and a quote. */
const ARTICLE_TEXT = ('A short piece on **the harbor** at night, with a [link](https://example.org/harbor) and a quote:'
  + '\n\n> The rain came in sideways.\n\nThen the ferry left, and the bookshop on the corner turned its lights off one by one. ').repeat(3);
const FORM_BOUNDARY = 'beatnik-bench-form';

/** A multipart form of text fields only, as the browser sends an article without a picture. */
function formOf(fields: Record<string, string>): string {
  return Object.entries(fields).map(([name, value]) => `--${FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')
    + `--${FORM_BOUNDARY}--\r\n`;
}

/** The hashtag of the bench's own articles, none of the seeded ones. */
const BENCH_TAG = 'benchpublished';

/** The bench's `n`-th article as the browser's form sends it (deleted with the row's, by its hashtag). */
export function benchArticle(n: number): { body: string; contentType: string } {
  return {
    body: formOf({ title: `An evening at the harbor, number ${n}`, content: ARTICLE_TEXT, hashtags: JSON.stringify([BENCH_TAG, 'harbor']) }),
    contentType: `multipart/form-data; boundary=${FORM_BOUNDARY}`,
  };
}

/**
 * Publishing: each request a new article by one of the pool's writers. The articles it made are
 * deleted through the API right after, so that a reused bench database does not grow by
 * thousands of articles (and its rows by as many) with every run. They are found by their
 * hashtag among each writer's articles: the responses still in flight when a run stops are never
 * seen by the load generator, but their articles exist all the same.
 */
export async function publishRow(
  row: ReturnType<typeof rowRunner>, url: string, pool: string[], connections: number,
  options: { name?: string; beforeCleanup?: () => Promise<void> } = {},
): Promise<Row> {
  const { name = PUBLISH_ROW, beforeCleanup } = options;
  let n = 0;
  const measured = await row(name, {
    path: '/api/posts', connections, options: {
      requests: [{
        setupRequest: (req) => {
          const article = benchArticle(n++);
          return {
            ...req, method: 'POST', path: '/api/posts', body: article.body,
            headers: { ...req.headers, 'content-type': article.contentType, authorization: `Bearer ${pool[Math.floor(Math.random() * pool.length)]}` },
          };
        },
      }],
    },
  });
  await beforeCleanup?.();
  await deleteBenchArticles(url, pool);
  return measured;
}

/** One article deleted, asked again when PostgreSQL answered 409 (two deletions locked each other out). */
async function deleteArticle(url: string, id: number, headers: Record<string, string>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/api/posts/${id}`, { method: 'DELETE', headers });
    const text = await res.text();
    if (res.ok) return;
    if (res.status !== 409 || attempt === 5) throw new Error(`deleting bench article ${id}: ${res.status} ${text}`);
  }
}

/** Deletes every article tagged BENCH_TAG by the pool's writers, as their authors, a few writers at a time. */
async function deleteBenchArticles(url: string, pool: string[]): Promise<void> {
  const writers = [...pool];
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let token = writers.pop(); token; token = writers.pop()) {
      const headers = { authorization: `Bearer ${token}` };
      const userId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
      for (;;) {
        const page = await (await fetch(`${url}/api/users/${userId}/posts?hashtag=${BENCH_TAG}&limit=100`, { headers })).json() as { posts: Array<{ id: number }> };
        if (page.posts.length === 0) break;
        for (const { id } of page.posts) await deleteArticle(url, id, headers);
      }
    }
  }));
}

/** What the rows ask for: articles, sessions to rate and comment with, a profile; and how to count visits. */
export interface BenchSite {
  ids: number[];
  pool: string[];
  author: string;
  countVisits: () => Promise<number>;
}

/**
 * Each request from a reader never seen before, so each one really counts a visit: visits are
 * told apart by the client's address, which the server takes from X-Forwarded-For when it trusts
 * the loopback proxy. The addresses start at a random point of 10.0.0.0/8 so that a second run
 * within the 30-minute visit window does not repeat the first one's readers.
 */
function newReaders(): () => string {
  let next = Math.floor(Math.random() * 2 ** 23);
  return () => {
    const n = next++ % 2 ** 24;
    return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
  };
}

/**
 * Every row, against one running server (on either database; `bench.server.helpers` are the
 * database's processes when it has its own), each beside the ceiling. Returns the rows and the
 * visit check.
 */
export async function measureRows(bench: Bench, site: BenchSite): Promise<{ rows: Row[]; visitCount: { requests: number; counted: number } }> {
  const row = rowRunner(bench);
  const { server, connections: CONNECTIONS } = bench;
  const { ids, pool, author, countVisits } = site;
  const randomPost = () => ids[Math.floor(Math.random() * ids.length)]!;
  const reader = newReaders();
  const visits = (connections: number, options: Partial<autocannon.Options> = {}, pathOf = (id: number) => `/api/posts/${id}`, pick = randomPost): Load => ({
    path: pathOf(1), connections, options: {
      ...options,
      requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(pick()), headers: { ...req.headers, 'x-forwarded-for': reader() } }) }],
    },
  });
  const rotate = (list: number[], pathOf: (id: number) => string, options: Partial<autocannon.Options> = {}): Load => ({
    path: pathOf(list[0]!), connections: CONNECTIONS,
    options: { ...options, requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(list[Math.floor(Math.random() * list.length)]!) }) }] },
  });
  const authed = (method: string, body: () => string, pathOf: () => string) => [{
    setupRequest: (req: any) => ({
      ...req, method, path: pathOf(), body: body(),
      headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${pool[Math.floor(Math.random() * pool.length)]}` },
    }),
  }];
  const ratings = (connections: number, options: Partial<autocannon.Options> = {}): Load => ({
    path: '/api/posts/1/rate', connections, options: {
      ...options,
      requests: authed('POST', () => JSON.stringify({ rating: 1 + Math.floor(Math.random() * 5) }), () => `/api/posts/${randomPost()}/rate`),
    },
  });

  const rows: Row[] = [];
  rows.push(await row('GET /api/frontpage', '/api/frontpage'));
  rows.push(await row('GET /api/posts', '/api/posts'));
  const visitsBefore = await countVisits();
  const visitRow = await row('GET /api/posts/{id} (counts a visit)', visits(CONNECTIONS));
  rows.push(visitRow);
  const visitCount = { requests: visitRow.warmupSent + visitRow.sent, counted: await countVisits() - visitsBefore };
  // Articles this client has read already: within 30 minutes a read counts no visit again.
  const reread = ids.slice(0, 500);
  for (const id of reread) await fetch(`${server.url}/api/posts/${id}`);
  rows.push(await row('GET /api/posts/{id} (re-read, no visit)', rotate(reread, (id) => `/api/posts/${id}`)));
  rows.push(await row('GET /api/ranks', '/api/ranks'));
  rows.push(await row('GET /api/ranks?hashtag=ja&time_period=30d', '/api/ranks?hashtag=ja&time_period=30d'));
  rows.push(await row('GET /api/ranks?criteria=visits&time_period=7d', '/api/ranks?criteria=visits&time_period=7d'));
  rows.push(await row('GET /api/authors', '/api/authors?limit=50'));
  // The explained rank (issue 17): one read by key of what the last refresh stored.
  rows.push(await row(RANK_ROW, rotate(reread, (id) => `/api/posts/${id}/rank`)));
  // Its latency, the target's measure: at a steady rate (as readers arrive) rather than full load.
  rows.push(await row(RANK_STEADY.row, { rate: RANK_STEADY.rate, path: () => `/api/posts/${reread[Math.floor(Math.random() * reread.length)]}/rank` }));
  // An author's mojo ledger, its latest page: the profile's 'How this mojo was earned'.
  rows.push(await row('GET /api/users/{id}/mojo', rotate(Array.from({ length: 1000 }, (_, i) => i + 1), (id) => `/api/users/${id}/mojo`)));
  rows.push(await row(SEARCH_ROW, {
    path: '/api/search', connections: CONNECTIONS,
    options: { requests: READERS_SEARCHES.map((q) => ({ path: `/api/search?q=${encodeURIComponent(q)}` })) },
  }));
  rows.push(await row('POST /api/posts/{id}/rate', ratings(CONNECTIONS)));
  rows.push(await row('POST /api/posts/{id}/comments', {
    path: '/api/posts/1/comments', connections: CONNECTIONS,
    options: { requests: authed('POST', () => JSON.stringify({ content: 'A benchmark comment' }), () => `/api/posts/${randomPost()}/comments`) },
  }));
  rows.push(await publishRow(row, server.url, pool, CONNECTIONS));
  // The pages the server renders (server/pages/), answered from their HTML cache as the lists are
  // from theirs, and asked for as a browser asks, accepting br: a page is sent as the compressed
  // copy its cache entry made once. An article's page from a set of 50 read already (the cache
  // keeps each for 5 s), then with a new reader each time (a visit counted on each), then a
  // different article each time (rendered on each: what a crawler walking the archive costs).
  const browser = { headers: { 'accept-encoding': 'br, gzip' } };
  const page = (path: string): Load => ({ path, connections: CONNECTIONS, options: browser });
  const articlePage = (id: number) => `/post/${id}`;
  const popular = ids.slice(0, 50);
  const pickPopular = () => popular[Math.floor(Math.random() * popular.length)]!;
  for (const id of popular) await fetch(server.url + articlePage(id));
  rows.push(await row('page /', page('/')));
  rows.push(await row('page /post/{id} (re-read, no visit)', rotate(popular, articlePage, browser)));
  rows.push(await row('page /post/{id} (counts a visit)', visits(CONNECTIONS, browser, articlePage, pickPopular)));
  rows.push(await row('page /post/{id} (rendered each time)', rotate(ids, articlePage, browser)));
  rows.push(await row('page /ranks', page('/ranks')));
  rows.push(await row('page /authors', page('/authors')));
  rows.push(await row('page /beatnik/{username}', page(`/beatnik/${encodeURIComponent(author)}`)));
  rows.push(await row(MIXED_ROW, {
    path: '/api/posts', connections: CONNECTIONS,
    options: { requests: [{ path: '/api/posts' }, { path: '/api/frontpage' }] },
  }, [visits(10, { overallRate: MIXED_RATES.visits }), ratings(4, { overallRate: MIXED_RATES.ratings })]));
  return { rows, visitCount };
}
