// Search (DESIGN.md, Reach: search): the active articles matching every word of a query, the last
// one as a prefix, accents and case aside; title matches first, newest first within each. The
// words and their matching are the search index's (server/search-index/); each result is the post
// as the lists show it, plus its snippet.
import type { AppContext } from '../context.ts';
import type { Page } from '../http.ts';
import { listActivePostsByIds } from '../posts/posts.service.ts';
import type { Post } from '../posts/posts.view.ts';
import { findMatches } from '../search-index/search-index.service.ts';
import { htmlText } from '../../shared/html-text.ts';
import { searchTerms } from '../../shared/search-text.ts';
import { markedTitle, snippetOf, type SnippetSegment } from './search.snippet.ts';

export type { SnippetSegment };

export type SearchResult = Post & { snippet: SnippetSegment[]; title_segments: SnippetSegment[] };

export interface SearchPage {
  posts: SearchResult[];
  total: number;
}

/**
 * Whatever the reader typed is words: operators, quotes and brackets of either database's search
 * syntax are separators like any punctuation (shared/search-text.ts). No words: no results.
 */
export async function searchPosts(ctx: AppContext, query: string, page: Page, mutedBy?: number): Promise<SearchPage> {
  const terms = searchTerms(query);
  if (terms.length === 0) return { posts: [], total: 0 };
  const { ids, total } = await findMatches(ctx.db, terms, page, mutedBy);
  const posts = await listActivePostsByIds(ctx.db, ids);
  return { posts: posts.map((post) => ({ ...post, snippet: snippetOf(htmlText(post.content_html), terms), title_segments: markedTitle(post.title, terms) })), total };
}
