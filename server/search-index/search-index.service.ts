// The search index (DESIGN.md, Reach: search): every active post's words, changed by the
// features that change a post or its author's name inside their own transactions, so a search
// never finds what is not there or misses what is. Matching returns ids only: what a result shows
// is the searching feature's (server/search/).
import type { DB } from '../schema.ts';
import type { Page } from '../http.ts';
import { searchDocument } from '../../shared/search-text.ts';
import { storedHashtags } from '../../shared/articles.ts';
import { htmlText } from '../../shared/html-text.ts';
import {
  countMatches, deleteSearchEntries, findIndexSources, findSearchEntries, findStrayEntries, listMatches,
  searchIndexProblem, writeSearchEntries, type IndexSource,
} from './search-index.repo.ts';

/** Only what every reader may find: published, not archived (as posts.service.ts's isListed). */
const listed = (source: IndexSource) => source.archived === 0 && source.status === 'published';

function entryOf(source: IndexSource) {
  return {
    post_id: source.id,
    ...searchDocument({ ...source, content: htmlText(source.content_html), hashtags: storedHashtags(source.hashtags) }),
  };
}

/**
 * Brings these posts' entries up to date, as the posts read now inside `trx`: an active post's
 * words are written, an archived, draft or deleted post's entry goes.
 */
export async function indexPosts(trx: DB, postIds: readonly number[]): Promise<void> {
  if (postIds.length === 0) return;
  const active = (await findIndexSources(trx, { postIds })).filter(listed);
  await writeSearchEntries(trx, active.map(entryOf));
  const kept = new Set(active.map((source) => source.id));
  await deleteSearchEntries(trx, postIds.filter((id) => !kept.has(id)));
}

/** After a rename: every active post of the author carries the new name. */
export async function indexAuthorPosts(trx: DB, authorId: number): Promise<void> {
  const active = (await findIndexSources(trx, { authorId })).filter(listed);
  await writeSearchEntries(trx, active.map(entryOf));
}

export interface Matches {
  /** The page's post ids: title matches first, then the others; newest first within each. */
  ids: number[];
  total: number;
}

/**
 * The posts whose words match every term (the last as a prefix), a page at a time. Posts whose
 * title matches come first: the page takes from them, then from the others. `mutedBy`: a reader
 * whose muted authors and hashtags are left out, of the page and of the counts alike.
 */
export async function findMatches(db: DB, terms: readonly string[], page: Page, mutedBy?: number): Promise<Matches> {
  const { total, titled } = await countMatches(db, terms, mutedBy);
  const ids = page.skip < titled ? await listMatches(db, terms, 'title', page, titled, mutedBy) : [];
  const wanted = Math.min(page.limit - ids.length, total - page.skip - ids.length);
  if (wanted > 0) {
    const rest = { skip: Math.max(0, page.skip - titled), limit: wanted };
    ids.push(...await listMatches(db, terms, 'rest', rest, total - titled, mutedBy));
  }
  return { ids, total };
}

/** The same words, in any order (PostgreSQL gives a tsvector's in its own). */
function sameWords(stored: string, expected: string): boolean {
  const sorted = (words: string) => words.split(' ').sort().join(' ');
  return sorted(stored) === sorted(expected);
}

/** Posts read at a time by the check below: memory stays flat on a large site. */
const CHECK_BATCH = 2_000;

/**
 * Each disagreement between the index and the posts, one line each (check-counters): an active
 * post missing or stale, an entry for a post that is archived, a draft or gone, and what the database's own
 * index check finds.
 */
export async function findSearchIndexDrift(db: DB): Promise<string[]> {
  const drift: string[] = [];
  for (let after = 0; ;) {
    const sources = await findIndexSources(db, { after, limit: CHECK_BATCH });
    if (sources.length === 0) break;
    const last = sources.at(-1)!.id;
    const stored = new Map((await findSearchEntries(db, after + 1, last)).map((entry) => [entry.post_id, entry]));
    for (const source of sources.filter(listed)) {
      const entry = stored.get(source.id);
      const expected = entryOf(source);
      if (!entry) drift.push(`post ${source.id} search index: missing`);
      else if (!sameWords(entry.title, expected.title) || !sameWords(entry.words, expected.words)) drift.push(`post ${source.id} search index: stale`);
    }
    after = last;
  }
  for (const id of await findStrayEntries(db)) drift.push(`post ${id} search index: indexed but not active`);
  const problem = await searchIndexProblem(db);
  if (problem) drift.push(`search index: ${problem}`);
  return drift;
}
