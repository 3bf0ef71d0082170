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
import { unpackBits } from './pdf-images.ts';

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

/** The invoice as a black-and-white scan: one bit a pixel, rows padded to a byte, a set bit white. */
async function invoiceBits(): Promise<{ bits: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  const rowBytes = Math.ceil(info.width / 8);
  const bits = new Uint8Array(rowBytes * info.height);
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if ((data[y * info.width + x] ?? 0) >= 128) bits[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
  return { bits, width: info.width, height: info.height };
}

describe('[O9] a PDF read by OCR, its text layer ignored', () => {
  it('spreads a 1-bit image to a grey byte a pixel, a set bit white, rows padded to a byte', () => {
    // 10 pixels a row: two bytes, the last six bits padding.
    const bits = new Uint8Array([0b1010_0000, 0b1100_0000, 0b0000_0000, 0b0100_0000]);
    expect([...unpackBits(bits, 10, 2)]).toEqual([
      255, 0, 255, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255,
    ]);
  });

  it('reads a black-and-white (1-bit) scan under a garbage layer, and reads it back', async () => {
    const bw = await invoiceBits();
    const bytes = buildScanPdf([{ jpeg: new Uint8Array(), ...bw, layer: GARBAGE }]);
    const ex = await extractFile(bytes, 'pdf', 'fax.pdf', { forceOcr: true });
    expect(ex.chunks.map((c) => c.body).join('\n')).toContain('Paid on March 14 2024');
    expect(ex.health).toEqual(['1 of 1 pages read by OCR, text layers ignored (read by OCR)']);
    await closeIngestWorkers();
    for (const c of ex.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
  }, 120_000);

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
