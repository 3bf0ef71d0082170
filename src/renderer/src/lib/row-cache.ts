/**
 * Paged rows for the virtual grid. The grid knows only `total` (for the scroll height); rows arrive in
 * pages of `files.list` (offset/limit) as the user scrolls. Pages are fetched once, refreshed when marked
 * stale (rows stay visible meanwhile), and the least recently used ones are dropped past `maxPages`, so
 * 100,000 rows never sit in memory at once.
 */
type Page<T> = { rows: T[]; stale: boolean; usedAt: number };

export class RowCache<T> {
  readonly pageSize: number;
  readonly maxPages: number;
  total: number | null = null;
  private pages = new Map<number, Page<T>>();
  private pending = new Set<number>();
  private clock = 0;

  constructor(pageSize = 200, maxPages = 60) {
    this.pageSize = pageSize;
    this.maxPages = maxPages;
  }

  /** The row at `index`, if its page is loaded (stale rows are still returned). */
  get(index: number): T | undefined {
    const page = this.pages.get(Math.floor(index / this.pageSize));
    return page?.rows[index % this.pageSize];
  }

  /**
   * Page numbers covering rows [start, end] (inclusive), clipped to the known total. A range past the
   * end (or an empty list) maps to page 0, whose answer carries the new total.
   */
  pagesFor(start: number, end: number): number[] {
    if (end < start) return [0];
    const last = this.total === null ? end : Math.min(end, this.total - 1);
    if (last < Math.max(0, start)) return [0];
    const out: number[] = [];
    for (let p = Math.floor(Math.max(0, start) / this.pageSize); p <= Math.floor(last / this.pageSize); p++) {
      out.push(p);
    }
    return out;
  }

  /** Pages in the range that need a fetch (absent or stale) and are not already being fetched. */
  missing(start: number, end: number): number[] {
    const now = ++this.clock;
    return this.pagesFor(start, end).filter((p) => {
      const page = this.pages.get(p);
      if (page) page.usedAt = now;
      return (!page || page.stale) && !this.pending.has(p);
    });
  }

  markPending(page: number): void {
    this.pending.add(page);
  }

  isPending(page: number): boolean {
    return this.pending.has(page);
  }

  /** Stores a fetched page and the total the host reported with it. */
  put(page: number, rows: T[], total: number): void {
    this.pending.delete(page);
    this.total = total;
    this.pages.set(page, { rows, stale: false, usedAt: ++this.clock });
    // Pages past the end (the list shrank) are gone.
    const lastPage = Math.max(0, Math.ceil(total / this.pageSize) - 1);
    for (const p of this.pages.keys()) if (p > lastPage) this.pages.delete(p);
    this.evict(page);
  }

  /** A fetch failed: let the next scroll try again. */
  fail(page: number): void {
    this.pending.delete(page);
  }

  /** Everything may have changed (files.changed): keep showing rows, refetch as they are seen. */
  invalidate(): void {
    for (const page of this.pages.values()) page.stale = true;
  }

  /** Updates loaded rows in place (e.g. a state change from an index.progress event). */
  patch(matches: (row: T) => boolean, update: (row: T) => T): boolean {
    let changed = false;
    for (const page of this.pages.values()) {
      page.rows = page.rows.map((row) => {
        if (!matches(row)) return row;
        changed = true;
        return update(row);
      });
    }
    return changed;
  }

  loadedPages(): number[] {
    return [...this.pages.keys()].sort((a, b) => a - b);
  }

  private evict(keep: number): void {
    if (this.pages.size <= this.maxPages) return;
    const byAge = [...this.pages.entries()]
      .filter(([p]) => p !== keep)
      .sort((a, b) => a[1].usedAt - b[1].usedAt);
    while (this.pages.size > this.maxPages && byAge.length > 0) {
      const oldest = byAge.shift();
      if (oldest) this.pages.delete(oldest[0]);
    }
  }
}
