// The button under a paged list (hooks/usePagedList.ts): shown while rows remain to be read.
import type { PagedList } from '../hooks/usePagedList.ts';

export function LoadMore({ list, what }: { list: PagedList<{ id: number }>; what: string }) {
  if (!list.hasMore) return null;
  return (
    <p className="load-more">
      <button type="button" className="button button--small" disabled={list.loadingMore}
        onClick={() => void list.loadMore()} aria-label={`Load more ${what}`}>
        {list.loadingMore ? 'Loading…' : 'Load more'}
      </button>
    </p>
  );
}
