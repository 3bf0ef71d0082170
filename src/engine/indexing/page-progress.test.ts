/**
 * A long PDF tells how far it has been read, page by page (docs/OCR.md [O4]): from the extraction
 * worker to extractFile's caller, to the queue (`brain index`'s progress bar) and to the host's
 * `index.progress` events (the Files row and the status bar).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { BrainHost } from '../host/host.ts';
import { closeIngestWorkers, extractFile } from '../ingest/index.ts';
import type { PageProgress } from '../ingest/types.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';
import type { IndexProgress } from './index-queue.ts';

const PAGES = 5;
const pdf = () =>
  buildPdf(
    Array.from({ length: PAGES }, (_, i) => [`Page ${i + 1} of the quarterly report`, `Figure ${i + 1}`]),
  );

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

describe('[O4] page progress', () => {
  it('extractFile tells each page of a PDF as it is read, in order', async () => {
    const seen: PageProgress[] = [];
    const ex = await extractFile(pdf(), 'pdf', 'report.pdf', { onProgress: (p) => seen.push(p) });
    expect(ex.chunks.length).toBeGreaterThanOrEqual(PAGES);
    expect(seen).toEqual(Array.from({ length: PAGES }, (_, i) => ({ page: i + 1, pages: PAGES })));
    // A listener that throws changes nothing for the extraction.
    const again = await extractFile(pdf(), 'pdf', 'report.pdf', {
      onProgress: () => {
        throw new Error('listener failed');
      },
    });
    expect(again.chunks.map((c) => c.body)).toEqual(ex.chunks.map((c) => c.body));
    await closeIngestWorkers();
  }, 60_000);

  it('the command line index reports the last page of the file it is on', async () => {
    const engine = ws.open();
    const path = join(ws.files, 'report.pdf');
    writeFileSync(path, pdf());
    await engine.add([path]);
    const seen: IndexProgress[] = [];
    const report = await engine.index([], (p) => seen.push(p));
    expect(report.indexed).toHaveLength(1);
    // Pages are told a few times a second at most, and always the last one.
    expect(seen).toContainEqual({
      done: 0,
      total: 1,
      label: 'report.pdf',
      phase: 'index',
      page: PAGES,
      pages: PAGES,
    });
    for (const p of seen.filter((s) => s.page !== undefined)) expect(p.page).toBeLessThanOrEqual(PAGES);
  }, 60_000);

  it('the host sends the page in its index.progress events, before the file is indexed', async () => {
    const path = join(ws.files, 'report.pdf');
    writeFileSync(path, pdf());
    const host = await BrainHost.start(ws.open(), { version: 'test' });
    const events: IndexProgressEvent[] = [];
    host.on((event, payload) => {
      if (event === 'index.progress') events.push(payload as IndexProgressEvent);
    });
    try {
      const added = await host.invoke('files.add', { paths: [path] });
      expect(added.ok).toBe(true);
      await host.invoke('files.index', {});
      await until(
        async () => events,
        (e) => e.some((x) => x.phase === 'indexed'),
      );
      const paged = events.findIndex((e) => e.phase === 'indexing' && e.page === PAGES && e.pages === PAGES);
      const indexed = events.findIndex((e) => e.phase === 'indexed');
      expect(paged).toBeGreaterThanOrEqual(0);
      expect(paged).toBeLessThan(indexed);
      expect(events[paged]).toMatchObject({ label: 'report.pdf', done: 0, total: 1 });
    } finally {
      await host.close();
    }
  }, 60_000);
});
