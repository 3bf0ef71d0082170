import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY, hasFilters, listInput, nextSort } from './file-query.ts';

describe('file query', () => {
  it('sorts a new column ascending, dates descending, and flips on a second click', () => {
    const byName = nextSort(DEFAULT_QUERY, 'name');
    expect([byName.sort, byName.dir]).toEqual(['name', 'asc']);
    expect(nextSort(byName, 'name').dir).toBe('desc');
    expect(nextSort(byName, 'size').dir).toBe('desc');
  });

  it('leaves empty filters out of the request', () => {
    expect(listInput(DEFAULT_QUERY, 200, 200)).toEqual({
      q: undefined,
      kinds: undefined,
      states: undefined,
      scopes: undefined,
      sort: 'addedAt',
      dir: 'desc',
      offset: 200,
      limit: 200,
    });
    expect(listInput({ ...DEFAULT_QUERY, q: ' report ', kinds: ['pdf'] }, 0, 10)).toMatchObject({
      q: 'report',
      kinds: ['pdf'],
    });
  });

  it('knows when filters are on', () => {
    expect(hasFilters(DEFAULT_QUERY)).toBe(false);
    expect(hasFilters({ ...DEFAULT_QUERY, states: ['failed'] })).toBe(true);
    expect(hasFilters({ ...DEFAULT_QUERY, q: '   ' })).toBe(false);
  });
});
