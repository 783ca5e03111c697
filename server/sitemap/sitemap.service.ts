// The sitemap protocol (sitemaps.org): at most 50,000 URLs a file. Up to that, /sitemap.xml lists
// them all; past it, /sitemap.xml is a sitemap index naming /sitemap-1.xml, /sitemap-2.xml, …,
// each the next 50,000 of the same list: authors (most articles first), then active articles
// (oldest first).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import {
  countSitemapEntries, listAuthorEntries, listPostEntries, type AuthorEntry, type ChunkStart, type PostEntry,
  type SitemapCounts,
} from './sitemap.repo.ts';
import { profilePath } from '../../shared/site.ts';

export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  /** From the site's root. */
  path: string;
  lastmod: string | null;
}

export type Sitemap = { urls: SitemapEntry[] } | { files: number };

const filesFor = (counts: SitemapCounts) => Math.max(1, Math.ceil((counts.authors + counts.posts) / SITEMAP_MAX_URLS));

/** What /sitemap.xml holds: every URL, or the index of the files that do. */
export async function sitemapRoot(ctx: AppContext): Promise<Sitemap> {
  const counts = await countSitemapEntries(ctx.db);
  const files = filesFor(counts);
  return files === 1 ? { urls: await entriesOfFile(ctx, 1, counts) } : { files };
}

/** The URLs of /sitemap-{file}.xml; a file past the last is a 404. */
export async function sitemapFile(ctx: AppContext, file: number): Promise<SitemapEntry[]> {
  const counts = await countSitemapEntries(ctx.db);
  if (!Number.isInteger(file) || file < 1 || file > filesFor(counts)) throw notFound('No such sitemap file');
  return entriesOfFile(ctx, file, counts);
}

async function entriesOfFile(ctx: AppContext, file: number, counts: SitemapCounts): Promise<SitemapEntry[]> {
  const start = (file - 1) * SITEMAP_MAX_URLS;
  const end = start + SITEMAP_MAX_URLS;
  const authorsStart = Math.min(start, counts.authors);
  const postsStart = Math.max(start - counts.authors, 0);
  const authors = await readInChunks(Math.min(end, counts.authors) - authorsStart, authorsStart,
    (from: ChunkStart<AuthorEntry>, limit) => listAuthorEntries(ctx.db, from, limit));
  const posts = await readInChunks(end - counts.authors - postsStart, postsStart,
    (from: ChunkStart<PostEntry>, limit) => listPostEntries(ctx.db, from, limit));
  return [
    ...authors.map((a) => ({ path: profilePath(a.username), lastmod: a.lastmod })),
    ...posts.map((p) => ({ path: `/post/${p.id}`, lastmod: p.updated_at })),
  ];
}

/**
 * A query on SQLite holds the event loop while it runs: 5,000 rows take about 10 ms, and between
 * two chunks other requests run (a resolved promise alone would not let them: setImmediate
 * waits for the event loop's next turn), so a sitemap file keeps no one waiting longer than that.
 */
const CHUNK_ROWS = 5_000;

/** Up to `count` rows from the `skip`-th on, a chunk at a time, each resuming after the last row read. */
async function readInChunks<Row>(
  count: number, skip: number, read: (start: ChunkStart<Row>, limit: number) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = [];
  while (rows.length < count) {
    const wanted = Math.min(CHUNK_ROWS, count - rows.length);
    const chunk = await read(rows.length === 0 ? { skip } : { after: rows[rows.length - 1]! }, wanted);
    rows.push(...chunk);
    if (chunk.length < wanted) break;
    await nextTurn();
  }
  return rows;
}
