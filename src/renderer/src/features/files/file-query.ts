/** What the grid shows: the filters, search and sort that make up one files.list query. */
import type { FileState } from '#shared/api/types.ts';

export type SortKey = 'name' | 'kind' | 'size' | 'addedBy' | 'addedAt' | 'scope' | 'state';
export type FileQuery = {
  q: string;
  kinds: string[];
  states: FileState[];
  scopes: string[];
  sort: SortKey;
  dir: 'asc' | 'desc';
};

export const FILE_STATE_LIST: readonly FileState[] = ['added', 'indexing', 'indexed', 'failed'];

export const DEFAULT_QUERY: FileQuery = {
  q: '',
  kinds: [],
  states: [],
  scopes: [],
  sort: 'addedAt',
  dir: 'desc',
};

export function hasFilters(q: FileQuery): boolean {
  return q.q.trim() !== '' || q.kinds.length > 0 || q.states.length > 0 || q.scopes.length > 0;
}

/** Clicking a header: a new column sorts ascending (dates and sizes newest/largest first); again flips. */
export function nextSort(q: FileQuery, key: SortKey): FileQuery {
  if (q.sort === key) return { ...q, dir: q.dir === 'asc' ? 'desc' : 'asc' };
  return { ...q, sort: key, dir: key === 'addedAt' || key === 'size' ? 'desc' : 'asc' };
}

/** The files.list input for one page (empty filters are left out). */
export function listInput(q: FileQuery, offset: number, limit: number) {
  return {
    q: q.q.trim() || undefined,
    kinds: q.kinds.length ? q.kinds : undefined,
    states: q.states.length ? q.states : undefined,
    scopes: q.scopes.length ? q.scopes : undefined,
    sort: q.sort,
    dir: q.dir,
    offset,
    limit,
  };
}
