// /search?q= (DESIGN.md, Reach: search): the articles matching the words, title matches first,
// each with its snippet, the matching words marked; 20 at a time with 'Load more'. The query lives
// in the address (components/search/searchQuery.ts), so back and forward move between searches.
import { useCallback } from 'react';
import toast from 'react-hot-toast';
import { Link, useSearch } from 'wouter';
import { request } from '../api.ts';
import { LoadMore } from '../components/LoadMore.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { Byline, HashtagLinks, PostImage, PostStats, postHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonStory } from '../components/posts/Skeleton.tsx';
import { SearchForm } from '../components/search/SearchForm.tsx';
import { queryOf } from '../components/search/searchQuery.ts';
import { plural, showingCount } from '../format.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { useEmbeddedValue } from '../hooks/useRead.ts';
import { useMutesRevision } from '../state/mutes.ts';
import { search as searchEndpoints } from '../endpoints.ts';
import type { SearchResult, SnippetSegment } from '../types.ts';

export const SEARCH_PAGE_SIZE = 20;
/** What the page is for, under its heading and in its description for search engines. */
export const SEARCH_LEDE = 'Every article, by a word from its title, its text, its hashtags or its author.';

/** A page of results for `query` (trimmed, not empty); the first is the page's first read (the
 * server renders /search with its answer: server/pages/). */
export const searchRead = (query: string, skip = 0) => searchEndpoints.posts({ q: query, skip, limit: SEARCH_PAGE_SIZE });

export function SearchPage() {
  const query = queryOf(useSearch()).trim();
  const first = useEmbeddedValue(searchRead(query));
  // The reader's mutes changing reads the results again, without what they muted.
  const revision = useMutesRevision();
  const fetchPage = useCallback(async (skip: number) => {
    // No words, no request.
    const page = query ? await request(searchRead(query, skip)) : { posts: [], total: 0 };
    return { items: page.posts, total: page.total };
  }, [query, revision]);
  const list = usePagedList(fetchPage, SEARCH_PAGE_SIZE, () => toast.error('Error loading search results'),
    first && { items: first.posts, total: first.total });
  const results = list.items;

  return (
    <article className="page search">
      <PageHeading title={query ? `Search: ${query}` : 'Search'} kicker="The archive">
        <p className="page-heading__lede">
          {query && results ? <>{plural(list.total, 'article')} for “<strong className="search__query">{query}</strong>”</> : SEARCH_LEDE}
        </p>
      </PageHeading>
      <SearchForm id="search-page-field" className="search__form" autoFocus={!query} />

      {!query ? (
        <section className="reader-empty">
          <h2 className="reader-empty__title">What are you looking for?</h2>
          <p>Type a word or two: a title, a line you remember, a hashtag or an author's name. Accents and capitals do not matter.</p>
        </section>
      ) : results === null ? (
        <div className="search-results"><LoadingNote label="Searching…" /><SkeletonStory /><SkeletonStory /></div>
      ) : results.length === 0 ? (
        <section className="reader-empty">
          <h2 className="reader-empty__title">No articles found</h2>
          <p>Nothing matches “{query}”. Try fewer words, or the beginning of a word.</p>
        </section>
      ) : (
        <ol className="search-results" aria-label={`Articles matching ${query}`}>
          {results.map((post) => <ResultRow key={post.id} post={post} />)}
        </ol>
      )}
      {query ? <LoadMore list={list} what="results" /> : null}
      {query && results && results.length > 0
        ? <p className="search__footer" aria-live="polite">{showingCount(results.length, list.total, 'article')}</p>
        : null}
    </article>
  );
}

function ResultRow({ post }: { post: SearchResult }) {
  return (
    <li className="search-results__row">
      <Link href={postHref(post)} tabIndex={-1} aria-hidden="true" className="search-results__picture"><PostImage post={post} /></Link>
      <div>
        <h2 className="search-results__title"><Link href={postHref(post)}><Snippet segments={post.title_segments} /></Link></h2>
        <Byline post={post} />
        <p className="search-results__snippet"><Snippet segments={post.snippet} /></p>
        <HashtagLinks tags={post.hashtags} max={2} />
        <PostStats post={post} />
      </div>
    </li>
  );
}

/** The server's segments as text, the matching words in <mark>: never parsed as HTML. */
export function Snippet({ segments }: { segments: SnippetSegment[] }) {
  return <>{segments.map((segment, i) => (segment.match ? <mark key={i}>{segment.text}</mark> : segment.text))}</>;
}
