/**
 * docs/OCR.md [O9]: a PDF "Read by OCR" has every page read by OCR, its text layer ignored (a
 * layer of look-alike garbage from a font with no Unicode map), and its locators say so, so
 * read-back OCRs the page again in a fresh worker. Normal and forced readings of the same bytes
 * never take each other's place in the worker's cache.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScanPdf } from '../../../test/ingest-helpers/build-scan-pdf.ts';
import { type Chunk, closeIngestWorkers, extractFile, readLocator, readWholeText } from './index.ts';

afterAll(() => closeIngestWorkers());

const jpeg = new Uint8Array(
  readFileSync(join(import.meta.dirname, '../../../test/fixtures/ocr/invoice.jpg')),
);
const GARBAGE = 'Hanorosas AeKnapauusi no Hanory';
const ONLY_LAYER = 'A page whose only picture is an icon';

const onPage = (chunks: Chunk[], page: number) =>
  chunks.filter((c) => c.locator.type === 'pdf' && c.locator.page === page);

async function scanWithGarbage(): Promise<Uint8Array> {
  const icon = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
    .jpeg()
    .toBuffer();
  return buildScanPdf([
    { jpeg, width: 640, height: 200, layer: GARBAGE },
    { jpeg: icon, width: 8, height: 8, layer: ONLY_LAYER },
  ]);
}

describe('[O9] a PDF read by OCR, its text layer ignored', () => {
  it('keeps the garbage layer normally, reads the scan when forced, and reads every chunk back', async () => {
    const bytes = await scanWithGarbage();
    const normal = await extractFile(bytes, 'pdf', 'form.pdf');
    expect(onPage(normal.chunks, 1).map((c) => c.body)).toEqual([GARBAGE]);
    expect(normal.chunks.every((c) => !('ocr' in c.locator))).toBe(true);

    const forced = await extractFile(bytes, 'pdf', 'form.pdf', { forceOcr: true });
    const page1 = onPage(forced.chunks, 1);
    const text = page1.map((c) => c.body).join('\n');
    expect(text).toContain('Paid on March 14 2024');
    expect(text).not.toContain('Hanorosas');
    for (const c of page1)
      expect(c.locator).toMatchObject({ type: 'pdf', page: 1, ocr: 'eng', forced: true });
    // A page with nothing to OCR keeps its layer, as a plain page, and the health says so.
    const page2 = onPage(forced.chunks, 2);
    expect(page2.map((c) => c.body)).toEqual([ONLY_LAYER]);
    expect(page2[0]?.locator).not.toHaveProperty('forced');
    expect(page2[0]?.locator).not.toHaveProperty('ocr');
    expect(forced.health).toEqual([
      '1 of 2 pages read by OCR, text layers ignored (read by OCR)',
      'page 2: no scanned image to read by OCR; text layer kept',
    ]);

    // Read back in a fresh worker: every chunk of both readings gives exactly its body.
    await closeIngestWorkers();
    for (const c of forced.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
    for (const c of normal.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
    expect(await readWholeText(bytes, 'pdf', { forceOcr: true })).toContain('Quarterly invoice total');
    expect(await readWholeText(bytes, 'pdf')).toContain(GARBAGE);
  }, 180_000);

  it('never takes a forced reading cached in the worker for a normal one, nor the other way', async () => {
    const bytes = await scanWithGarbage();
    await closeIngestWorkers();
    const forced = await extractFile(bytes, 'pdf', 'form.pdf', { forceOcr: true });
    const normal = await extractFile(bytes, 'pdf', 'form.pdf');
    expect(onPage(normal.chunks, 1).map((c) => c.body)).toEqual([GARBAGE]);
    const again = await extractFile(bytes, 'pdf', 'form.pdf', { forceOcr: true });
    expect(again.chunks).toEqual(forced.chunks);
    for (const c of normal.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
    for (const c of forced.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
  }, 180_000);
});
