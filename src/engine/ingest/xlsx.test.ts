import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { buildXlsx } from '../../../test/ingest-helpers/build-office.ts';
import { expectReadBack } from '../../../test/ingest-helpers/read-back.ts';
import { closeIngestWorkers, extractFile, readLocator } from './index.ts';

afterAll(() => closeIngestWorkers());

const bigRows = Array.from({ length: 120 }, (_, i) => [`item ${i}`, i * 10, `note for row ${i}`]);

describe('xlsx', () => {
  it('one section per visible sheet, hidden sheets skipped, big sheets split with the header kept', async () => {
    const bytes = await buildXlsx(
      [
        { name: 'People', rows: [['Name', 'Role'], ['Ann', 'CEO'], [], ['Bob', null, 'extra']] },
        { name: 'Secret', rows: [['salary'], [1]], state: 'hidden' },
        { name: 'Big', rows: [['Item', 'Price', 'Note'], ...bigRows] },
        { name: 'Empty', rows: [] },
        { name: 'Dates', rows: [['When'], [new Date(Date.UTC(2024, 0, 15))]], state: 'veryHidden' },
      ],
      'Inventory',
    );
    const ex = await extractFile(bytes, 'xlsx', 'book.xlsx');
    expect(ex.title).toBe('Inventory');
    expect(ex.health).toEqual(['hidden sheets skipped: Secret, Dates', 'tables flattened to text']);
    expect(ex.chunks[0]).toEqual({
      key: 'sheet:People#1',
      label: 'book.xlsx > People',
      body: 'Name | Role\nAnn | CEO\nBob |  | extra',
      locator: { type: 'xlsx', sheet: 'People', rowStart: 1, rowEnd: 4 },
    });
    const big = ex.chunks.filter((c) => c.key.startsWith('sheet:Big#'));
    expect(big.length).toBeGreaterThan(3);
    expect(big.map((c) => c.key)).toEqual(big.map((_, i) => `sheet:Big#${i + 1}`));
    for (const c of big) {
      expect(c.body.startsWith('Item | Price | Note\n')).toBe(true);
      expect(c.body.length).toBeLessThanOrEqual(1000);
    }
    expect(big[1]!.body.split('\n')[1]).toMatch(/^item \d+ \| \d+ \| note for row \d+$/);
    expect(ex.chunks.some((c) => c.key.includes('Secret') || c.key.includes('Empty'))).toBe(false);
    await expectReadBack(bytes, 'xlsx', ex);
    const again = await extractFile(new Uint8Array(bytes), 'xlsx', 'book.xlsx');
    expect(again.chunks).toEqual(ex.chunks);
  });

  it('renders dates, formulas and rich text as plain cell text', async () => {
    const bytes = await buildXlsx([
      {
        name: 'S',
        rows: [
          ['When', 'Sum'],
          [new Date(Date.UTC(2024, 0, 15)), 3],
        ],
      },
    ]);
    const ex = await extractFile(bytes, 'xlsx', 'd.xlsx');
    expect(ex.chunks[0]!.body).toBe('When | Sum\n2024-01-15 | 3');
  });

  it('refuses a locator for a hidden or missing sheet', async () => {
    const bytes = await buildXlsx([
      { name: 'A', rows: [['x']] },
      { name: 'H', rows: [['y']], state: 'hidden' },
    ]);
    await expect(
      readLocator(bytes, 'xlsx', { type: 'xlsx', sheet: 'H', rowStart: 1, rowEnd: 1 }),
    ).rejects.toMatchObject({
      code: 'stale',
    });
  });

  it('refuses a corrupt workbook with a reason', async () => {
    const bytes = new TextEncoder().encode('not a zip at all');
    await expect(extractFile(bytes, 'xlsx', 'bad.xlsx')).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^corrupt or unreadable spreadsheet: /),
    });
  });
  it('[F18] reads inline-string cells that also hold a cached value, as Excel shows them', async () => {
    const zip = await JSZip.loadAsync(await buildXlsx([{ name: 'Reqs', rows: [['x']] }]));
    const inline = (ref: string, text: string, v = '') =>
      `<c r="${ref}" t="inlineStr">${v}<is><r><t xml:space="preserve">${text}</t></r></is></c>`;
    const sheetData =
      `<sheetData><row r="1">${inline('A1', 'Outline')}${inline('B1', 'Name')}</row>` +
      `<row r="2"><c r="A2"><v>1.0</v></c>${inline('B2', 'requirement', '<v>1.0</v>')}<c r="C2"/></row></sheetData>`;
    const name = Object.keys(zip.files).find((n) => /^xl\/worksheets\/sheet1\.xml$/.test(n))!;
    const xml = await zip.file(name)!.async('string');
    zip.file(name, xml.replace(/<sheetData\/>|<sheetData>[\s\S]*<\/sheetData>/, sheetData));
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const ex = await extractFile(bytes, 'xlsx', 'reqs.xlsx');
    expect(ex.chunks.map((c) => c.body)).toEqual(['Outline | Name\n1 | requirement']);
    await expectReadBack(bytes, 'xlsx', ex);
  });
});
