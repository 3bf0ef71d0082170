import { afterAll, describe, expect, it } from 'vitest';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { closeIngestWorkers, extractFile, readLocator } from './index.ts';
import { pdfDate, pdfTitle } from './pdf.ts';

afterAll(() => closeIngestWorkers());

const longPage = Array.from(
  { length: 60 },
  (_, i) => `Line ${i} of the second page, with some words to fill it up.`,
);

describe('pdf', () => {
  const bytes = buildPdf([['Quarterly report', 'Revenue grew (a lot).'], longPage], 'Q3 Report');

  it('extracts each page flat, keyed and labelled by page, and reads every chunk back', async () => {
    const ex = await extractFile(bytes, 'pdf', 'report.pdf');
    expect(ex.title).toBe('Q3 Report');
    expect(ex.occurredAt).toBe('2024-03-15T12:00:00.000Z');
    expect(ex.chunks[0]).toMatchObject({
      key: 'p1#1',
      label: 'report.pdf, page 1',
      body: 'Quarterly report\nRevenue grew (a lot).',
      locator: { type: 'pdf', page: 1, charStart: 0, lineStart: 1, lineEnd: 2 },
    });
    const page2 = ex.chunks.filter((c) => c.locator.type === 'pdf' && c.locator.page === 2);
    expect(page2.map((c) => c.key)).toEqual(page2.map((_, i) => `p2#${i + 1}`));
    expect(page2.length).toBeGreaterThan(2);
    // The overlap starts at a word within the last 100 characters of the previous piece.
    const tail = page2[0]!.body.slice(-100);
    expect(tail.includes(page2[1]!.body.slice(0, 40))).toBe(true);
    expect(ex.chunks.every((c) => c.label.startsWith('report.pdf, page '))).toBe(true);
    await expectReadBack(bytes, 'pdf', ex);
  });

  it('is stable across re-extraction', async () => {
    const a = await extractFile(bytes, 'pdf', 'report.pdf');
    const b = await extractFile(new Uint8Array(bytes), 'pdf', 'report.pdf');
    expect(b.chunks).toEqual(a.chunks);
  });

  it('gives zero chunks and a note for a PDF without text', async () => {
    const ex = await extractFile(buildPdf([[], []]), 'pdf', 'scan.pdf');
    expect(ex.chunks).toEqual([]);
    expect(ex.health).toEqual(['no text layer and no scanned image to read']);
  });

  it('refuses a corrupt PDF with a reason', async () => {
    const junk = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog');
    await expect(extractFile(junk, 'pdf', 'bad.pdf')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^corrupt or unreadable PDF: /),
    });
  });

  it('refuses a locator for a page that does not exist', async () => {
    await expect(
      readLocator(bytes, 'pdf', { type: 'pdf', page: 9, charStart: 0, charEnd: 3, lineStart: 1, lineEnd: 1 }),
    ).rejects.toMatchObject({ code: 'stale' });
  });

  it('parses PDF dates and ignores file-name titles', () => {
    expect(pdfDate("D:20090401163925-07'00'")).toBe('2009-04-01T23:39:25.000Z');
    expect(pdfDate('garbage')).toBeNull();
    expect(pdfTitle('Binder1.pdf')).toBeNull();
    expect(pdfTitle('Microsoft Word - Plan')).toBe('Plan');
  });
});
