// /authors (SPEC §2, Voices): the authors directory with a keyword search and six sorts, 50 at
// a time with 'Load more'; the footer counts the cards shown against the matching total.
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { Avatar } from '../components/Avatar.tsx';
import { SearchField, SelectField } from '../components/Field.tsx';
import { LoadMore } from '../components/LoadMore.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { authorHref } from '../components/posts/PostBits.tsx';
import { LoadingNote, SkeletonLines } from '../components/posts/Skeleton.tsx';
import { request } from '../api.ts';
import { useSite } from '../state/site.ts';
import { discovery } from '../endpoints.ts';
import { clipBio, compactCount, mojoRounded, oneDecimal, showingCount } from '../format.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { usePagedList } from '../hooks/usePagedList.ts';
import { useEmbeddedValue } from '../hooks/useRead.ts';
import type { AuthorCard, AuthorSort } from '../types.ts';

export const AUTHOR_SORTS = [
  { value: 'mojo_desc', label: 'Most mojo' },
  { value: 'mojo_asc', label: 'Least mojo' },
  { value: 'posts_desc', label: 'Most articles' },
  { value: 'posts_asc', label: 'Fewest articles' },
  { value: 'rating_desc', label: 'Best rated' },
  { value: 'rating_asc', label: 'Lowest rated' },
] as const satisfies ReadonlyArray<{ value: AuthorSort; label: string }>;
const PAGE_SIZE = 50;

/** A page of Voices; the first, unfiltered, is the page's first read (the server renders Voices
 * with its answer: server/pages/). */
export const voicesRead = (skip = 0, sort: AuthorSort = 'mojo_desc', keyword = '') =>
  discovery.authors({ skip, limit: PAGE_SIZE, sort_by: sort, search: keyword });

export function VoicesPage() {
  const site = useSite();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<AuthorSort>('mojo_desc');
  const keyword = useDebounced(search.trim(), 300);
  const first = useEmbeddedValue(voicesRead(0, sort, keyword));
  const fetchPage = useCallback(async (skip: number) => {
    const page = await request(voicesRead(skip, sort, keyword));
    return { items: page.authors, total: page.total };
  }, [keyword, sort]);
  const list = usePagedList(fetchPage, PAGE_SIZE, () => toast.error('Error loading authors'),
    first && { items: first.authors, total: first.total });
  const authors = list.items;

  return (
    <article className="page voices">
      <PageHeading title="Voices" kicker={`The writers of ${site.name}`}>
        <p className="page-heading__lede">The beatniks who write this paper. Find a voice you like and follow it.</p>
      </PageHeading>
      <div className="voices__controls" role="search">
        <SearchField id="voices-search" label="Search authors" placeholder="Name or words from a bio" value={search} onChange={setSearch} />
        <SelectField id="voices-sort" label="Sort by" value={sort} options={AUTHOR_SORTS} onChange={setSort} />
      </div>

      {authors === null ? (
        <div className="voice-grid"><LoadingNote label="Loading authors…" />{[0, 1, 2, 3].map((i) => <SkeletonLines key={i} lines={3} />)}</div>
      ) : authors.length === 0 ? (
        <section className="reader-empty">
          <h2 className="reader-empty__title">No authors found</h2>
          <p>{keyword ? `No author matches "${keyword}".` : 'Nobody has published an article yet.'}</p>
        </section>
      ) : (
        <ul className="voice-grid" aria-label="Authors">
          {authors.map((author) => <VoiceCard key={author.id} author={author} />)}
        </ul>
      )}
      <LoadMore list={list} what="authors" />
      {authors ? <p className="voices__footer" aria-live="polite">{showingCount(authors.length, list.total, 'author')}</p> : null}
    </article>
  );
}

function VoiceCard({ author }: { author: AuthorCard }) {
  return (
    <li className="voice-card">
      <Avatar username={author.username} avatar={author.avatar} size={64} />
      <h2 className="voice-card__name">{author.username}</h2>
      <dl className="voice-card__numbers">
        <div><dt>Mojo</dt><dd>{mojoRounded(author.mojo)}</dd></div>
        <div><dt>Articles</dt><dd>{compactCount(author.posts_count)}</dd></div>
        <div><dt>Rating</dt><dd>{oneDecimal(author.average_rating)}</dd></div>
      </dl>
      <p className="voice-card__bio">{author.bio ? clipBio(author.bio) : <span className="quiet">No bio yet.</span>}</p>
      <Link href={authorHref(author.username)} className="button button--small voice-card__link"
        aria-label={`Ver perfil: ${author.username}`}>Ver perfil</Link>
    </li>
  );
}
