// SQL for the search index: each active post's words in post_search, and finding the posts whose
// words match a query, which each database does its own way (sqlite/sqlite.search.ts,
// postgres/postgres.search.ts).
import { dialectOf } from '../db.ts';
import type { DB, PostSearchTable, PostStatus } from '../schema.ts';
import { countPostgresMatches, listPostgresEntries, listPostgresMatches } from '../postgres/postgres.search.ts';
import { countSqliteMatches, listSqliteMatches, sqliteSearchIndexProblem } from '../sqlite/sqlite.search.ts';
import type { Page } from '../http.ts';
import type { MatchCounts, MatchScope } from '../text-search.ts';

/** What a post's entry is made of. */
export interface IndexSource {
  id: number;
  title: string;
  /** The rendered content (server/markdown/): its words are its plain text's. */
  content_html: string;
  /** The JSON list the post row keeps. */
  hashtags: string;
  archived: number;
  status: PostStatus;
  username: string;
}

export type IndexedPosts = { postIds: readonly number[] } | { authorId: number } | { after: number; limit: number };

/** The posts named, with their author's name: by id, by author, or a page of all of them in id order. */
export function findIndexSources(db: DB, which: IndexedPosts): Promise<IndexSource[]> {
  let query = db.selectFrom('posts').innerJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.id', 'posts.title', 'posts.content_html', 'posts.hashtags', 'posts.archived', 'posts.status', 'users.username']);
  if ('postIds' in which) query = query.where('posts.id', 'in', which.postIds);
  else if ('authorId' in which) query = query.where('posts.author_id', '=', which.authorId);
  else query = query.where('posts.id', '>', which.after).orderBy('posts.id').limit(which.limit);
  return query.execute();
}

/** Rows a statement: three parameters each, far below either database's limit. */
const ROWS_PER_WRITE = 500;

/** Writes these entries; an entry already stored as it is now is not rewritten. */
export async function writeSearchEntries(trx: DB, entries: readonly PostSearchTable[]): Promise<void> {
  for (let at = 0; at < entries.length; at += ROWS_PER_WRITE) {
    await trx.insertInto('post_search').values(entries.slice(at, at + ROWS_PER_WRITE))
      .onConflict((oc) => oc.column('post_id')
        .doUpdateSet({ title: (eb) => eb.ref('excluded.title'), words: (eb) => eb.ref('excluded.words') })
        .where((eb) => eb.or([
          eb('post_search.title', '!=', eb.ref('excluded.title')),
          eb('post_search.words', '!=', eb.ref('excluded.words')),
        ])))
      .execute();
  }
}

export async function deleteSearchEntries(trx: DB, postIds: readonly number[]): Promise<void> {
  if (postIds.length === 0) return;
  await trx.deleteFrom('post_search').where('post_id', 'in', postIds).execute();
}

/** The stored entries of posts in an id range (inclusive), each column's words space-separated, in any order. */
export function findSearchEntries(db: DB, fromId: number, toId: number): Promise<PostSearchTable[]> {
  if (dialectOf(db) === 'postgres') return listPostgresEntries(db, fromId, toId);
  return db.selectFrom('post_search').select(['post_id', 'title', 'words']).where('post_id', '>=', fromId).where('post_id', '<=', toId).execute();
}

/** Entries of posts that are archived, drafts or gone: none should exist. */
export async function findStrayEntries(db: DB): Promise<number[]> {
  const rows = await db.selectFrom('post_search').leftJoin('posts', 'posts.id', 'post_search.post_id')
    .select('post_search.post_id')
    .where((eb) => eb.or([eb('posts.id', 'is', null), eb('posts.archived', '!=', 0), eb('posts.status', '!=', 'published')]))
    .execute();
  return rows.map((row) => row.post_id);
}

/** `mutedBy`: a reader whose muted authors and hashtags are left out. */
export function countMatches(db: DB, terms: readonly string[], mutedBy?: number): Promise<MatchCounts> {
  return dialectOf(db) === 'postgres' ? countPostgresMatches(db, terms, mutedBy) : countSqliteMatches(db, terms, mutedBy);
}

/** A page of the matching posts' ids in `scope`, newest (highest id) first; `matches` is how many there are. */
export function listMatches(db: DB, terms: readonly string[], scope: MatchScope, page: Page, matches: number, mutedBy?: number): Promise<number[]> {
  return dialectOf(db) === 'postgres'
    ? listPostgresMatches(db, terms, scope, page, matches, mutedBy)
    : listSqliteMatches(db, terms, scope, page, mutedBy);
}

/** What the database's own index check finds wrong (SQLite's FTS5 against post_search), or undefined. */
export async function searchIndexProblem(db: DB): Promise<string | undefined> {
  // PostgreSQL's GIN indexes are the table's own: nothing can leave them behind it.
  return dialectOf(db) === 'postgres' ? undefined : sqliteSearchIndexProblem(db);
}
