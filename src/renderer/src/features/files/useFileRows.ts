/**
 * The grid's data: a RowCache per query, filled page by page as the virtualizer asks for ranges, kept
 * fresh by `files.changed` (pages go stale and are refetched when seen) and `index.progress` (rows are
 * patched in place, so chips move from added → indexing → indexed without a refetch).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import type { FileList, FileRow } from '#shared/api/types.ts';
import type { AppError } from '#shared/errors.ts';
import { useEvent } from '../../hooks/useEvent.ts';
import { call } from '../../lib/api.ts';
import { RowCache } from '../../lib/row-cache.ts';
import { runQueue } from '../../lib/upload-queue.ts';
import { type FileQuery, listInput } from './file-query.ts';

export type Phase = IndexProgressEvent['phase'];
/** How far a file being indexed has been read: a PDF's page (docs/OCR.md [O4]). */
export type PageProgress = { page: number; pages: number };
const PAGE = 200;
const ID_BLOCK = 1000;

export type FileRows = {
  total: number | null;
  version: number;
  getRow: (index: number) => FileRow | undefined;
  requestRange: (start: number, end: number) => void;
  facets: FileList['facets'];
  phases: ReadonlyMap<string, Phase>;
  /** The page each file being indexed is on, for the PDFs that said so. */
  pages: ReadonlyMap<string, PageProgress>;
  error: AppError | null;
  retry: () => void;
  /** Fetches the visible rows again (a file changed outside the host's events: an unlock). */
  reload: () => void;
  /** Ids of the rows at these indexes, fetching pages that are not loaded. */
  idsAt: (indices: number[]) => Promise<string[]>;
  /** The rows at these indexes (to name them, as the remove dialog does), fetched like `idsAt`. */
  rowsAt: (indices: number[]) => Promise<FileRow[]>;
};

export function useFileRows(query: FileQuery): FileRows {
  // One cache per query: a new filter or sort starts from an empty cache (old answers land in the old one).
  const key = JSON.stringify(query);
  const holder = useRef<{ key: string; cache: RowCache<FileRow> } | null>(null);
  if (!holder.current || holder.current.key !== key)
    holder.current = { key, cache: new RowCache<FileRow>(PAGE) };
  const cache = holder.current.cache;
  const [version, setVersion] = useState(0);
  const [facets, setFacets] = useState<FileList['facets']>({ kinds: [], scopes: [] });
  const [error, setError] = useState<AppError | null>(null);
  const [phases, setPhases] = useState<ReadonlyMap<string, Phase>>(new Map());
  const [pages, setPages] = useState<ReadonlyMap<string, PageProgress>>(new Map());
  const range = useRef({ start: 0, end: 60 });
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  const fetchPage = useCallback(
    async (page: number) => {
      cache.markPending(page);
      try {
        const res = await call('files.list', listInput(query, page * PAGE, PAGE));
        cache.put(page, res.rows, res.total);
        if (page === 0) setFacets(res.facets);
        setError(null);
      } catch (err) {
        cache.fail(page);
        setError(err as AppError);
      }
      bump();
    },
    [cache, query, bump],
  );

  const requestRange = useCallback(
    (start: number, end: number) => {
      range.current = { start, end };
      for (const page of cache.missing(start, end)) void fetchPage(page);
    },
    [cache, fetchPage],
  );

  useEffect(() => {
    requestRange(range.current.start, Math.max(range.current.end, 60));
  }, [requestRange]);

  // A burst of changes (a folder of 10,000 files arriving) refetches the visible pages a few times at most.
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEvent('files.changed', () => {
    if (refreshTimer.current) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      cache.invalidate();
      requestRange(range.current.start, range.current.end);
    }, 300);
  });
  useEffect(
    () => () => {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
    },
    [],
  );

  useEvent('index.progress', (e) => {
    const final = e.phase === 'indexed' || e.phase === 'failed';
    setPhases((prev) => {
      const next = new Map(prev);
      if (final) next.delete(e.fileId);
      else next.set(e.fileId, e.phase);
      return next;
    });
    const { page, pages: count } = e;
    setPages((prev) => {
      if (e.phase === 'indexing' && page !== undefined && count !== undefined)
        return new Map(prev).set(e.fileId, { page, pages: count });
      if (!prev.has(e.fileId)) return prev;
      const next = new Map(prev);
      next.delete(e.fileId);
      return next;
    });
    const state = e.phase === 'indexed' ? 'indexed' : e.phase === 'failed' ? 'failed' : 'indexing';
    const patched = cache.patch(
      (row) => row.id === e.fileId,
      (row) => ({
        ...row,
        state,
        reason: e.phase === 'failed' ? (e.reason ?? row.reason) : row.reason,
        sections: e.sections ?? row.sections,
      }),
    );
    if (patched) bump();
  });

  const retry = useCallback(() => {
    setError(null);
    cache.invalidate();
    requestRange(range.current.start, range.current.end);
  }, [cache, requestRange]);

  // Rows for a selection that may span rows never scrolled into view: loaded rows come from the cache,
  // the rest in blocks of 1,000 (the contract's page limit), a few requests at a time.
  const rowsAt = useCallback(
    async (indices: number[]) => {
      const found = new Map<number, FileRow>();
      const blocks = new Set<number>();
      for (const i of indices) {
        const row = cache.get(i);
        if (row) found.set(i, row);
        else blocks.add(Math.floor(i / ID_BLOCK));
      }
      await runQueue([...blocks], 4, async (block) => {
        const res = await call('files.list', listInput(query, block * ID_BLOCK, ID_BLOCK));
        res.rows.forEach((row, k) => {
          found.set(block * ID_BLOCK + k, row);
        });
      });
      return indices.map((i) => found.get(i)).filter((row): row is FileRow => !!row);
    },
    [cache, query],
  );
  const idsAt = useCallback(
    async (indices: number[]) => (await rowsAt(indices)).map((row) => row.id),
    [rowsAt],
  );

  return {
    total: cache.total,
    version,
    getRow: (i) => cache.get(i),
    requestRange,
    facets,
    phases,
    pages,
    error,
    retry,
    reload: retry,
    idsAt,
    rowsAt,
  };
}
