// A list read a page at a time with 'Load more' (Voices and the admin tabs). The first page is
// read again whenever `fetchPage` changes (the caller's query), unless `first` gives it for the
// first query (the server's answer, embedded in the page); the next page is appended on demand;
// a row removed or changed here keeps the rows and `total` in step. A page answering an older
// query is dropped, and rows already shown (the list moved between pages) are not repeated.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ListPage<T> {
  items: T[];
  total: number;
}

export interface PagedList<T> {
  /** null until the first page arrives. */
  items: T[] | null;
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): Promise<void>;
  remove(id: number): void;
  replace(item: T): void;
}

export function usePagedList<T extends { id: number }>(
  fetchPage: (skip: number, limit: number) => Promise<ListPage<T>>, pageSize: number, onError: () => void,
  first?: ListPage<T>,
): PagedList<T> {
  const [page, setPage] = useState<ListPage<T> | null>(first ?? null);
  const firstQuery = useRef(first ? fetchPage : undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const query = useRef(0);
  const reportError = useRef(onError);
  reportError.current = onError;

  useEffect(() => {
    if (fetchPage === firstQuery.current) return;
    const mine = ++query.current;
    fetchPage(0, pageSize).then(
      (first) => { if (query.current === mine) setPage(first); },
      () => {
        if (query.current !== mine) return;
        setPage({ items: [], total: 0 });
        reportError.current();
      },
    );
  }, [fetchPage, pageSize]);

  const shown = page?.items.length ?? 0;
  const loadMore = useCallback(async () => {
    const mine = query.current;
    setLoadingMore(true);
    try {
      const next = await fetchPage(shown, pageSize);
      if (query.current !== mine) return;
      setPage((current) => {
        if (!current) return next;
        const seen = new Set(current.items.map((item) => item.id));
        return { items: [...current.items, ...next.items.filter((item) => !seen.has(item.id))], total: next.total };
      });
    } catch {
      if (query.current === mine) reportError.current();
    } finally {
      setLoadingMore(false);
    }
  }, [fetchPage, pageSize, shown]);

  const remove = useCallback((id: number) => {
    setPage((current) => current && current.items.some((item) => item.id === id)
      ? { items: current.items.filter((item) => item.id !== id), total: Math.max(0, current.total - 1) }
      : current);
  }, []);

  const replace = useCallback((changed: T) => {
    setPage((current) => current && { ...current, items: current.items.map((item) => (item.id === changed.id ? changed : item)) });
  }, []);

  return {
    items: page?.items ?? null,
    total: page?.total ?? 0,
    hasMore: page !== null && page.items.length < page.total,
    loadingMore,
    loadMore,
    remove,
    replace,
  };
}
