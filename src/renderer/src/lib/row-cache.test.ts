import { describe, expect, it } from 'vitest';
import { RowCache } from './row-cache.ts';

type Row = { n: number; state: string };
const rows = (page: number, size: number, count = size) =>
  Array.from({ length: count }, (_, i): Row => ({ n: page * size + i, state: 'added' }));

describe('RowCache', () => {
  it('asks for the first page before the total is known', () => {
    const c = new RowCache<Row>(100);
    expect(c.missing(0, 30)).toEqual([0]);
  });

  it('serves rows from loaded pages and knows the total', () => {
    const c = new RowCache<Row>(100);
    c.markPending(0);
    expect(c.missing(0, 30)).toEqual([]);
    c.put(0, rows(0, 100), 10_000);
    expect(c.total).toBe(10_000);
    expect(c.get(42)?.n).toBe(42);
    expect(c.get(142)).toBeUndefined();
  });

  it('lists only the pages a scroll range needs, clipped to the total', () => {
    const c = new RowCache<Row>(100);
    c.put(0, rows(0, 100), 250);
    expect(c.missing(90, 420)).toEqual([1, 2]);
    c.markPending(1);
    expect(c.missing(90, 420)).toEqual([2]);
    expect(c.pagesFor(9990, 10_010)).toEqual([0]);
  });

  it('jumps to the end of 100,000 rows without loading the middle', () => {
    const c = new RowCache<Row>(200);
    c.put(0, rows(0, 200), 100_000);
    expect(c.missing(99_980, 99_999)).toEqual([499]);
    c.put(499, rows(499, 200), 100_000);
    expect(c.get(99_999)?.n).toBe(99_999);
    expect(c.loadedPages()).toEqual([0, 499]);
  });

  it('keeps stale rows visible but refetches them', () => {
    const c = new RowCache<Row>(100);
    c.put(0, rows(0, 100), 100);
    c.invalidate();
    expect(c.get(5)?.n).toBe(5);
    expect(c.missing(0, 10)).toEqual([0]);
  });

  it('refetches page 0 of an empty list, so added files appear', () => {
    const c = new RowCache(100);
    c.put(0, [], 0);
    expect(c.missing(0, 60)).toEqual([]);
    c.invalidate();
    expect(c.missing(0, 60)).toEqual([0]);
  });

  it('retries a page after a failed fetch', () => {
    const c = new RowCache<Row>(100);
    c.markPending(0);
    c.fail(0);
    expect(c.missing(0, 10)).toEqual([0]);
  });

  it('drops pages past a shrunken end', () => {
    const c = new RowCache<Row>(100);
    c.put(0, rows(0, 100), 300);
    c.put(2, rows(2, 100), 300);
    c.put(0, rows(0, 100, 50), 50);
    expect(c.loadedPages()).toEqual([0]);
  });

  it('evicts the least recently used pages', () => {
    const c = new RowCache<Row>(10, 3);
    c.put(0, rows(0, 10), 1000);
    c.put(1, rows(1, 10), 1000);
    c.put(2, rows(2, 10), 1000);
    c.missing(0, 5); // touch page 0
    c.put(3, rows(3, 10), 1000);
    expect(c.loadedPages()).toEqual([0, 2, 3]);
  });

  it('patches loaded rows in place', () => {
    const c = new RowCache<Row>(10);
    c.put(0, rows(0, 10), 10);
    expect(
      c.patch(
        (r) => r.n === 3,
        (r) => ({ ...r, state: 'indexed' }),
      ),
    ).toBe(true);
    expect(c.get(3)?.state).toBe('indexed');
    expect(
      c.patch(
        (r) => r.n === 99,
        (r) => r,
      ),
    ).toBe(false);
  });
});
