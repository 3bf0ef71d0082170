import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { buildDocx, buildXlsx, buildZip } from '../../../test/ingest-helpers/build-office.ts';
import { buildPdf } from '../../../test/ingest-helpers/build-pdf.ts';
import { buildPptx } from '../../../test/ingest-helpers/build-pptx.ts';
import { detectFormat } from './index.ts';

const text = (s: string) => new TextEncoder().encode(s);
const CFB = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);

describe('detectFormat refusals', () => {
  const cases: [string, Uint8Array, string, string][] = [
    ['empty', new Uint8Array(0), 'a.md', 'empty file (0 bytes)'],
    [
      'CFB container',
      CFB,
      'secret.docx',
      'an old binary Office document (.doc, .xls or .ppt): save it as .docx, .xlsx or .pptx',
    ],
    [
      'old .xls',
      CFB,
      'old.xls',
      'an old binary Office document (.doc, .xls or .ppt): save it as .docx, .xlsx or .pptx',
    ],
    [
      'unknown extension',
      text('hello'),
      'photo.bmp',
      'unsupported file type .bmp (Org Brain reads .md, .txt, .csv, .tsv, .html, .pdf, .docx, .xlsx, .pptx and PNG, JPEG, TIFF or WebP pictures)',
    ],
    [
      'text named .png',
      text('hello'),
      'photo.png',
      'named .png but the content is not a PNG, JPEG, TIFF or WebP image',
    ],
    [
      'HEIC photo',
      Uint8Array.from([0, 0, 0, 24, ...text('ftypheic'), 0, 0, 0, 0, ...text('mif1heic')]),
      'IMG_0001.HEIC',
      'a HEIC/HEIF photo: Org Brain has no HEIC decoder (export it as JPEG or PNG)',
    ],
    [
      'no extension',
      text('hello'),
      'README',
      'unsupported file type no extension (Org Brain reads .md, .txt, .csv, .tsv, .html, .pdf, .docx, .xlsx, .pptx and PNG, JPEG, TIFF or WebP pictures)',
    ],
    [
      'binary .txt',
      Uint8Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 0 : (i * 31) % 256)),
      'x.txt',
      'binary content, not text',
    ],
    ['not a PDF', text('just words'), 'report.pdf', 'named .pdf but the content is not a PDF'],
    ['not a DOCX', text('just words'), 'memo.docx', 'named .docx but the content is not a Word document'],
    [
      'truncated pptx',
      Uint8Array.from([0x50, 0x4b, 3, 4, 1, 2, 3, 4, 5, 6]),
      'deck.pptx',
      'corrupt or truncated PowerPoint presentation: no end-of-directory record (truncated or not a ZIP)',
    ],
    [
      'binary .tsv',
      Uint8Array.from({ length: 4000 }, (_, i) => (i % 5 === 0 ? 0 : (i * 17) % 256)),
      'x.tsv',
      'binary content, not text',
    ],
    [
      'truncated zip',
      Uint8Array.from([0x50, 0x4b, 3, 4, 1, 2, 3, 4, 5, 6]),
      'memo.docx',
      'corrupt or truncated Word document: no end-of-directory record (truncated or not a ZIP)',
    ],
  ];
  for (const [what, bytes, name, reason] of cases) {
    it(`refuses ${what}`, () => {
      expect(detectFormat(bytes, name)).toEqual({ ok: false, reason });
    });
  }

  it('refuses files over the size limit', () => {
    const r = detectFormat(new Uint8Array(MAX_FILE_BYTES + 1024 * 1024), 'big.txt');
    expect(r).toEqual({ ok: false, reason: 'too large: 101 MB (the limit is 100 MB)' });
  });

  it('refuses a ZIP that is neither Word nor Excel', async () => {
    const zip = await buildZip({ 'notes.txt': 'hello', 'img/a.txt': 'x' });
    expect(detectFormat(zip, 'archive.zip')).toEqual({
      ok: false,
      reason: 'a ZIP archive that is not a Word, Excel or PowerPoint document',
    });
    expect(detectFormat(await buildZip({ 'xl/worksheets/sheet1.xml': '<x/>' }), 'a.xlsx')).toEqual({
      ok: false,
      reason: 'an incomplete Excel workbook (xl/workbook.xml is missing)',
    });
  });
});

describe('detectFormat accepts', () => {
  it('text by name', () => {
    expect(detectFormat(text('# Hi'), 'a.md')).toEqual({ ok: true, format: 'md', health: [] });
    expect(detectFormat(text('# Hi'), 'A.MARKDOWN')).toEqual({ ok: true, format: 'md', health: [] });
    expect(detectFormat(text('hi'), 'notes.txt')).toEqual({ ok: true, format: 'txt', health: [] });
    expect(detectFormat(Uint8Array.from([0x68, 0xe9, 0x21]), 'x.txt')).toEqual({
      ok: true,
      format: 'txt',
      health: ['not UTF-8: decoded as Windows-1252'],
    });
  });

  it('BOM-less UTF-16 text (NULs in every other byte) is text, not binary', () => {
    const le = Uint8Array.from([...'hello world'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(detectFormat(le, 'x.txt')).toMatchObject({ ok: true, format: 'txt' });
  });

  it('PDF by content, whatever the name', () => {
    const pdf = buildPdf([['hello']]);
    expect(detectFormat(pdf, 'a.pdf')).toEqual({ ok: true, format: 'pdf', health: [] });
    expect(detectFormat(pdf, 'a.txt')).toEqual({
      ok: true,
      format: 'pdf',
      health: ['named .txt but the content is a PDF'],
    });
  });

  it('DOCX and XLSX by their ZIP entries; content wins over the name', async () => {
    const docx = await buildDocx(['hello']);
    const xlsx = await buildXlsx([{ name: 'S', rows: [['a']] }]);
    expect(detectFormat(docx, 'a.docx')).toEqual({ ok: true, format: 'docx', health: [] });
    expect(detectFormat(docx, 'x.txt')).toEqual({
      ok: true,
      format: 'docx',
      health: ['named .txt but the content is a Word document'],
    });
    expect(detectFormat(docx, 'macro.docm')).toMatchObject({ ok: true, format: 'docx' });
    expect(detectFormat(xlsx, 'a.xlsx')).toEqual({ ok: true, format: 'xlsx', health: [] });
    expect(detectFormat(xlsx, 'a.xlsm')).toMatchObject({ ok: true, format: 'xlsx' });
    expect(detectFormat(xlsx, 'data')).toEqual({
      ok: true,
      format: 'xlsx',
      health: ['has no extension but the content is an Excel workbook'],
    });
  });

  it('[F8] PPTX by its ZIP entries, whatever the name', async () => {
    const pptx = await buildPptx([{ title: 'Hi' }]);
    expect(detectFormat(pptx, 'talk.docx')).toEqual({
      ok: true,
      format: 'pptx',
      health: ['named .docx but the content is a PowerPoint presentation'],
    });
  });

  it('[F1][F5] CSV, TSV and HTML by name; a saved page or a table named .txt by content', () => {
    expect(detectFormat(text('a;b\n1;2'), 'x.csv')).toEqual({ ok: true, format: 'csv', health: [] });
    expect(detectFormat(text('<p>hi</p>'), 'x.htm')).toEqual({ ok: true, format: 'html', health: [] });
    expect(detectFormat(text('<!DOCTYPE html><p>hi</p>'), 'x.txt')).toMatchObject({ format: 'html' });
    expect(detectFormat(text('a\tb\n1\t2\n3\t4\n'), 'x')).toEqual({
      ok: true,
      format: 'csv',
      health: ['has no extension but the content is a delimited table'],
    });
    expect(detectFormat(text('a\tb\n1\t2\n'), 'x.txt')).toMatchObject({ format: 'txt' });
  });
});

describe('detectFormat pictures (docs/OCR.md [O3])', () => {
  const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const TIFF = Uint8Array.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]);
  const WEBP = Uint8Array.from([...text('RIFF'), 0, 0, 0, 0, ...text('WEBPVP8 ')]);

  it('by magic bytes, whatever the name', () => {
    for (const [bytes, name] of [
      [PNG, 'a.png'],
      [JPEG, 'b.JPG'],
      [JPEG, 'c.jpeg'],
      [TIFF, 'd.tif'],
      [WEBP, 'e.webp'],
    ] as const) {
      expect(detectFormat(bytes, name)).toEqual({ ok: true, format: 'image', health: [] });
    }
    expect(detectFormat(JPEG, 'scan.png')).toEqual({
      ok: true,
      format: 'image',
      health: ['named .png but the content is a JPEG image'],
    });
    expect(detectFormat(PNG, 'scan')).toMatchObject({ ok: true, format: 'image' });
  });
});
