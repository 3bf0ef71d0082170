/** OCR of pictures and scanned PDF pages (docs/OCR.md). Small images: OCR is slow on two cores. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locator } from '#shared/types.ts';
import { buildScanPdf } from '../../../test/ingest-helpers/build-scan-pdf.ts';
import { closeIngestWorkers, extractFile, readLocator, readWholeText } from './index.ts';
import { clarity, recognize, unturnBox } from './ocr.ts';
import { installedOcrLanguages, langPathFor, langPathOf } from './ocr-languages.ts';
import { ocrPage } from './pdf-ocr.ts';

afterAll(() => closeIngestWorkers());

const dir = join(import.meta.dirname, '../../../test/fixtures/ocr');
const fixture = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const LINES = ['Quarterly invoice total', 'Paid on March 14 2024'];

describe('[O8] pictures and scans that lie turned', () => {
  it('reads a picture turned 90°, 180° or 270° upright, with boxes in the picture as it is', async () => {
    const upright = await sharp(fixture('invoice.png')).metadata();
    for (const turn of [90, 180, 270] as const) {
      const bytes = new Uint8Array(await sharp(fixture('invoice.png')).rotate(turn).png().toBuffer());
      const ex = await extractFile(bytes, 'image', `turned-${turn}.png`);
      const text = ex.chunks.map((c) => c.body).join('\n');
      for (const line of LINES) expect(text, `turned ${turn}`).toContain(line);
      expect(ex.health).toEqual([`the picture lies turned: read turned ${(360 - turn) % 360}° clockwise`]);
      const box = ex.chunks[0]?.locator.type === 'image' ? ex.chunks[0].locator.bbox : undefined;
      const [w, h] =
        turn === 180 ? [upright.width ?? 0, upright.height ?? 0] : [upright.height ?? 0, upright.width ?? 0];
      expect(box?.[2]).toBeLessThanOrEqual(w);
      expect(box?.[3]).toBeLessThanOrEqual(h);
      // On its side, a line of text is taller than it is wide in the picture as it is.
      if (turn !== 180)
        expect((box?.[3] ?? 0) - (box?.[1] ?? 0)).toBeGreaterThan((box?.[2] ?? 0) - (box?.[0] ?? 0));
    }
  }, 120_000);

  it('records the turn in the locator, and reads back once at that turn', async () => {
    const bytes = new Uint8Array(await sharp(fixture('invoice.png')).rotate(90).png().toBuffer());
    const ex = await extractFile(bytes, 'image', 'turned.png');
    const chunk = ex.chunks[0];
    if (!chunk) throw new Error('no chunk');
    expect(chunk.locator).toMatchObject({ type: 'image', ocr: 'eng', turn: 270 });
    await closeIngestWorkers();
    for (const c of ex.chunks) expect(await readLocator(bytes, 'image', c.locator)).toBe(c.body);
    // Read at the recorded turn only: the same locator saying "as it lies" reads the scraps.
    const asItLies = { ...chunk.locator, turn: 0 as const } as Locator;
    const scraps = await readLocator(bytes, 'image', asItLies).catch(() => null);
    expect(scraps).not.toBe(chunk.body);
    // A locator made before turns were kept finds the turn again.
    const { turn: _, ...legacy } = chunk.locator as Locator & { turn?: number };
    expect(await readLocator(bytes, 'image', legacy as Locator)).toBe(chunk.body);
    // A scanned page on its side, the same.
    const pdf = buildScanPdf([{ jpeg: await sharp(bytes).jpeg().toBuffer(), width: 200, height: 640 }]);
    const scan = await extractFile(pdf, 'pdf', 'turned.pdf');
    expect(scan.chunks[0]?.locator).toMatchObject({ type: 'pdf', page: 1, ocr: 'eng', turn: 270 });
    await closeIngestWorkers();
    for (const c of scan.chunks) expect(await readLocator(pdf, 'pdf', c.locator)).toBe(c.body);
  }, 180_000);

  it("gives a box read on the turned picture back in the picture's own pixels", () => {
    // The box [22, 39, 331, 66] of a 640 x 200 picture read upright, on the picture as it lies.
    const read: [number, number, number, number] = [22, 39, 331, 66];
    expect(unturnBox(read, 270, 200, 640)).toEqual([134, 22, 161, 331]); // it lay turned 90°
    expect(unturnBox(read, 180, 640, 200)).toEqual([309, 134, 618, 161]);
    expect(unturnBox(read, 90, 200, 640)).toEqual([39, 309, 66, 618]); // it lay turned 270°
    expect(unturnBox([1, 2, 3, 4], 0, 10, 10)).toEqual([1, 2, 3, 4]);
  });

  it('scores scraps low and words and figures high', () => {
    expect(clarity({ text: 'g 2\na 0\nOo m3', confidence: 61 })).toBe(0);
    expect(clarity({ text: 'Base 128 | 64,058 N/A', confidence: 90 })).toBeCloseTo(54);
    expect(clarity({ text: '', confidence: 95 })).toBe(0);
  });
});

describe('[O3] pictures', () => {
  it('reads the words of a PNG, each chunk with its box, and reads it back after a restart', async () => {
    const bytes = fixture('invoice.png');
    const ex = await extractFile(bytes, 'image', 'invoice.png');
    expect(ex.health).toEqual([]);
    const text = ex.chunks.map((c) => c.body).join('\n');
    for (const line of LINES) expect(text).toContain(line);
    const [chunk] = ex.chunks;
    expect(chunk?.locator).toMatchObject({ type: 'image', charStart: 0, lineStart: 1, ocr: 'eng' });
    const box = chunk?.locator.type === 'image' ? chunk.locator.bbox : undefined;
    expect(box?.[0]).toBeLessThan(40);
    expect(box?.[2]).toBeGreaterThan(300);
    // A fresh worker has no cache: the read-back OCRs the same bytes again and must agree ([O5]).
    await closeIngestWorkers();
    for (const c of ex.chunks) expect(await readLocator(bytes, 'image', c.locator)).toBe(c.body);
  }, 60_000);

  it('reads JPEG, TIFF and WebP the same way', async () => {
    for (const name of ['invoice.jpg', 'invoice.tiff', 'invoice.webp']) {
      const ex = await extractFile(fixture(name), 'image', name);
      expect(ex.chunks.map((c) => c.body).join('\n'), name).toContain('March 14 2024');
    }
  }, 90_000);

  it('refuses a corrupt picture with a reason', async () => {
    const bytes = fixture('invoice.png').slice(0, 300);
    await expect(extractFile(bytes, 'image', 'cut.png')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^corrupt or unreadable image: /),
      details: { file: 'cut.png' },
    });
  }, 30_000);

  it('[O7] reads Russian with the traineddata the app ships (no npm package has it)', async () => {
    expect(installedOcrLanguages()).toEqual(expect.arrayContaining(['eng', 'rus']));
    expect(langPathOf('rus')).toBe(join(import.meta.dirname, '../../../resources/ocr/rus'));
    expect(langPathOf('eng')).toMatch(/@tesseract\.js-data\/eng\/4\.0\.0_best_int$/);
    expect(langPathOf('../rus')).toBeNull();
    // A picture made for this test (DejaVu Serif): "Invoice for the third quarter", "Paid on 14 March 2024".
    const bytes = fixture('invoice-ru.png');
    const ex = await extractFile(bytes, 'image', 'invoice-ru.png', { ocrLanguages: ['rus'] });
    const text = ex.chunks.map((c) => c.body).join('\n');
    expect(text).toContain('третий квартал');
    expect(text).toContain('14 марта 2024');
    expect(ex.chunks[0]?.locator).toMatchObject({ type: 'image', ocr: 'rus' });
    const english = await extractFile(bytes, 'image', 'invoice-ru.png');
    expect(english.chunks.map((c) => c.body).join('\n')).not.toContain('квартал');
  }, 90_000);

  it('[O2] reads a picture in two languages at once, from one folder linking both', async () => {
    const dir = langPathFor(['rus', 'eng']);
    expect(dir).not.toBeNull();
    expect(readdirSync(dir as string).sort()).toEqual(['eng.traineddata.gz', 'rus.traineddata.gz']);
    expect(langPathFor(['rus', 'eng'])).toBe(dir);
    expect(langPathFor(['rus', 'xyz'])).toBeNull();
    // A picture made for this test: a Russian line and an English one.
    const bytes = fixture('invoice-mixed.png');
    const ex = await extractFile(bytes, 'image', 'invoice-mixed.png', { ocrLanguages: ['rus', 'eng'] });
    const text = ex.chunks.map((c) => c.body).join('\n');
    expect(text).toContain('третий квартал');
    // "on" is spelt alike in both alphabets: tesseract may read it as the Cyrillic "оп".
    expect(text).toMatch(/Paid \S+ March 14 2024/);
    expect(ex.chunks[0]?.locator).toMatchObject({ type: 'image', ocr: 'rus+eng' });
    // Read back with the locator's own languages, in a fresh worker.
    await closeIngestWorkers();
    for (const c of ex.chunks) expect(await readLocator(bytes, 'image', c.locator)).toBe(c.body);
  }, 120_000);

  it('refuses a language whose data is not installed', async () => {
    expect(installedOcrLanguages()).toContain('eng');
    await expect(
      extractFile(fixture('invoice.png'), 'image', 'a.png', { ocrLanguages: ['xyz'] }),
    ).rejects.toMatchObject({ code: 'refused', message: 'no OCR data installed for language "xyz"' });
    await expect(
      extractFile(fixture('invoice.png'), 'image', 'a.png', { ocrLanguages: ['eng', 'xyz'] }),
    ).rejects.toMatchObject({ code: 'refused', message: 'no OCR data installed for language "xyz"' });
    await expect(
      extractFile(fixture('invoice.png'), 'image', 'a.png', { ocrLanguages: ['eng', 'rus', 'eng', 'rus'] }),
    ).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^OCR reads 1 to 3 languages/),
    });
  }, 30_000);
});

describe('[O3] [O4] scanned PDF pages', () => {
  it('OCRs a page without a text layer, keeps a page with one, and reads every chunk back', async () => {
    const jpeg = fixture('invoice.jpg');
    const layer = 'An invisible OCR layer that is kept as it is';
    const bytes = buildScanPdf([
      { jpeg, width: 640, height: 200 },
      { jpeg, width: 640, height: 200, layer },
    ]);
    const ex = await extractFile(bytes, 'pdf', 'scan.pdf');
    expect(ex.health).toEqual(['1 of 2 pages read by OCR']);
    const page1 = ex.chunks.filter((c) => c.locator.type === 'pdf' && c.locator.page === 1);
    expect(page1.map((c) => c.body).join('\n')).toContain('Paid on March 14 2024');
    expect(page1[0]?.locator).toMatchObject({ type: 'pdf', page: 1, ocr: 'eng' });
    const page2 = ex.chunks.filter((c) => c.locator.type === 'pdf' && c.locator.page === 2);
    expect(page2.map((c) => c.body)).toEqual([layer]);
    expect(page2[0]?.locator).not.toHaveProperty('ocr');
    await closeIngestWorkers();
    for (const c of ex.chunks) expect(await readLocator(bytes, 'pdf', c.locator)).toBe(c.body);
    expect(await readWholeText(bytes, 'pdf')).toContain('Quarterly invoice total');
  }, 90_000);

  it('skips a page whose OCR fails, with the reason, and keeps what the page had', async () => {
    const broken = {
      width: 100,
      height: 100,
      channels: 3 as const,
      data: new Uint8ClampedArray(10),
      key: 'x',
    };
    const got = await ocrPage('p. 7', async () => [broken], ['eng'], 7);
    expect(got.text).toBe('p. 7');
    expect(got.lines).toBeNull();
    expect(got.note).toMatch(/^page 7: OCR failed \(.+\); skipped$/);
    const thrown = await ocrPage('', () => Promise.reject(new Error('bad image stream')), ['eng'], 2);
    expect(thrown.note).toBe('page 2: OCR failed (bad image stream); skipped');
  });

  it('a page past its time bound fails with the reason (and the next page gets a fresh worker)', async () => {
    const png = fixture('invoice.png');
    await expect(recognize(Buffer.from(png), ['eng'], 1)).rejects.toMatchObject({
      code: 'refused',
      message: 'OCR took longer than 0.001 s',
    });
    expect((await recognize(Buffer.from(png), ['eng'])).text).toContain('Paid on March 14 2024');
  }, 60_000);

  it('a page with no image is left as it is, without OCR', async () => {
    const got = await ocrPage('', async () => [], ['eng'], 1);
    expect(got).toEqual({ text: '', lines: null, turn: null, note: null });
  });
});

it('the test images are what they claim', async () => {
  expect((await sharp(fixture('invoice.tiff')).metadata()).format).toBe('tiff');
});
