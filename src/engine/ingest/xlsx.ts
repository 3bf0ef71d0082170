/**
 * XLSX through exceljs: each visible sheet's non-empty rows as lines (cells joined by " | "), the
 * first non-empty row as header; row groups of at most SECTION_MAX_CHARS, each led by the header.
 * Runs in the worker.
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { SECTION_MAX_CHARS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { coreDate } from './core-props.ts';
import type { DocumentDate } from './document-date.ts';
import type { Chunk, Extraction } from './types.ts';
import { bytesKey, cached } from './worker-cache.ts';
import { verifiedZip } from './zip-verify.ts';

type SheetText = { name: string; rows: number[]; lines: Map<number, string> };
type BookText = { title: string | null; dated: DocumentDate | null; sheets: SheetText[]; hidden: string[] };

// Nodes that carry no cell text. dataValidations over A1:XFD1048576 makes exceljs spin for minutes,
// and merged ranges would repeat a value in every covered cell.
const IGNORED_NODES = [
  'dataValidations',
  'conditionalFormatting',
  'mergeCells',
  'hyperlinks',
  'extLst',
  'drawing',
  'picture',
  'tableParts',
  'rowBreaks',
  'headerFooter',
  'pageSetup',
  'printOptions',
  'pageMargins',
  'autoFilter',
  'sheetProtection',
];

function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

function valueText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return dateText(v);
  if (typeof v !== 'object') return String(v);
  if ('richText' in v) return Array.isArray(v.richText) ? v.richText.map((r) => r.text ?? '').join('') : '';
  if ('error' in v) return String(v.error);
  if ('formula' in v || 'sharedFormula' in v) return valueText(v.result);
  if ('text' in v) return typeof v.text === 'string' ? v.text : valueText(v.text as ExcelJS.CellValue);
  return '';
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    return valueText(cell.value).replace(/\s+/g, ' ').trim();
  } catch {
    return '';
  }
}

function sheetText(ws: ExcelJS.Worksheet): SheetText {
  const cells = new Map<number, string[]>();
  let minCol = Number.POSITIVE_INFINITY;
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const texts: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const t = cellText(cell);
      if (t === '') return;
      texts[col - 1] = t;
      minCol = Math.min(minCol, col);
    });
    if (texts.length > 0) cells.set(rowNumber, texts);
  });
  const lines = new Map<number, string>();
  for (const [rowNumber, texts] of cells) {
    lines.set(rowNumber, Array.from(texts.slice(minCol - 1), (t) => t ?? '').join(' | '));
  }
  const rows = [...lines.keys()].sort((a, b) => a - b);
  return { name: ws.name, rows, lines };
}

function loadInto(wb: ExcelJS.Workbook, archive: ArrayBufferLike | Uint8Array): Promise<unknown> {
  return wb.xlsx.load(archive as unknown as Parameters<typeof wb.xlsx.load>[0], {
    ignoreNodes: IGNORED_NODES,
  });
}

/** exceljs 4.4 fails on an inline-string cell that also holds a cached `<v>` ([F18] in docs/FORMATS.md). */
function isInlineValueBug(err: unknown): boolean {
  return err instanceof TypeError && /Cannot create property 'richText' on string/.test(err.message);
}

const INLINE_CELL = /<c\b(?=[^>]*\bt="inlineStr")[^>]*[^/]>[\s\S]*?<\/c>/g;

/**
 * The archive again with the `<v>` of every inline-string cell dropped: Excel shows the inline
 * string (`<is>`), so the text read is the text a person sees ([F18]). The archive was verified
 * (zip-verify.ts) before, so its parts inflate to their known sizes.
 */
async function withoutInlineValues(archive: ArrayBufferLike): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(archive as ArrayBuffer);
  for (const name of Object.keys(zip.files)) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) continue;
    const xml = await zip.file(name)!.async('string');
    zip.file(
      name,
      xml.replace(INLINE_CELL, (cell) => cell.replace(/<v>[^<]*<\/v>|<v\s*\/>/g, '')),
    );
  }
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

async function loadBook(bytes: Uint8Array): Promise<BookText> {
  let wb = new ExcelJS.Workbook();
  // A fresh buffer holding exactly the verified archive (zip-verify.ts), so no copy is needed.
  const zip = await verifiedZip(bytes, 'spreadsheet');
  const checked = zip.buffer;
  // Not exceljs's wb.modified: without the property it is the time of loading, which is no date.
  const dated = coreDate(zip);
  try {
    await loadInto(wb, checked);
  } catch (err) {
    let failure = err;
    if (isInlineValueBug(err)) {
      try {
        wb = new ExcelJS.Workbook();
        await loadInto(wb, await withoutInlineValues(checked));
        failure = null;
      } catch (again) {
        failure = again;
      }
    }
    if (failure) {
      const reason = failure instanceof Error ? failure.message : String(failure);
      throw new AppError('refused', `corrupt or unreadable spreadsheet: ${reason.slice(0, 200)}`);
    }
  }
  const sheets: SheetText[] = [];
  const hidden: string[] = [];
  for (const ws of wb.worksheets) {
    if (ws.state === 'hidden' || ws.state === 'veryHidden') hidden.push(ws.name);
    else sheets.push(sheetText(ws));
  }
  const title = typeof wb.title === 'string' && wb.title.trim() ? wb.title.trim() : null;
  return { title, dated, sheets, hidden };
}

function book(bytes: Uint8Array): Promise<BookText> {
  return cached(bytesKey('xlsx', bytes), () => loadBook(bytes));
}

/** The text of rows rowStart..rowEnd, always led by the header row (never repeated). */
function renderRows(sheet: SheetText, rowStart: number, rowEnd: number): string {
  const header = sheet.rows[0];
  if (header === undefined) return '';
  const out = [sheet.lines.get(header)!];
  for (const r of sheet.rows) if (r > header && r >= rowStart && r <= rowEnd) out.push(sheet.lines.get(r)!);
  return out.join('\n');
}

/** Row groups: as many rows as fit in SECTION_MAX_CHARS with the header; at least one row each. */
function rowGroups(sheet: SheetText): { rowStart: number; rowEnd: number }[] {
  const [header, ...data] = sheet.rows;
  if (header === undefined) return [];
  const headerLen = sheet.lines.get(header)!.length;
  const groups: { rowStart: number; rowEnd: number }[] = [];
  let current: { rowStart: number; rowEnd: number } = { rowStart: header, rowEnd: header };
  let len = headerLen;
  for (const r of data) {
    const add = sheet.lines.get(r)!.length + 1;
    if (len + add > SECTION_MAX_CHARS && current.rowEnd !== header && len > headerLen) {
      groups.push(current);
      current = { rowStart: r, rowEnd: r };
      len = headerLen + add;
    } else {
      current.rowEnd = r;
      len += add;
    }
  }
  groups.push(current);
  return groups;
}

function sheetChunks(sheet: SheetText, fileLabel: string): Chunk[] {
  return rowGroups(sheet).map((g, i) => {
    const locator: Locator = { type: 'xlsx', sheet: sheet.name, ...g };
    return {
      key: `sheet:${sheet.name}#${i + 1}`,
      label: `${fileLabel} > ${sheet.name}`,
      body: renderRows(sheet, g.rowStart, g.rowEnd),
      locator,
    };
  });
}

function healthOf(b: BookText, chunks: Chunk[]): string[] {
  const health: string[] = [];
  if (b.hidden.length > 0) health.push(`hidden sheets skipped: ${b.hidden.join(', ')}`);
  if (chunks.length > 0) health.push('tables flattened to text');
  if (b.sheets.length === 0 && b.hidden.length === 0)
    health.push('no worksheets could be read (a damaged workbook?)');
  else if (chunks.length === 0) health.push('no text in the visible sheets');
  return health;
}

export async function extractXlsx(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const b = await book(bytes);
  const chunks = b.sheets.flatMap((s) => sheetChunks(s, fileLabel));
  return {
    title: b.title,
    occurredAt: b.dated?.at ?? null,
    datedBy: b.dated?.from ?? null,
    health: healthOf(b, chunks),
    chunks,
  };
}

export async function readXlsx(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'xlsx')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a spreadsheet`);
  const sheet = (await book(bytes)).sheets.find((s) => s.name === locator.sheet);
  if (!sheet) throw new AppError('stale', `sheet "${locator.sheet}" is not in the workbook (or is hidden)`);
  const text = renderRows(sheet, locator.rowStart, locator.rowEnd);
  if (!text) throw new AppError('stale', `sheet "${locator.sheet}" has no text`);
  return text;
}

/** Every visible sheet: its name on a line, then its header and rows. */
export async function xlsxWholeText(bytes: Uint8Array): Promise<string> {
  const b = await book(bytes);
  return b.sheets
    .filter((s) => s.rows.length > 0)
    .map((s) => `${s.name}\n${renderRows(s, 0, Number.POSITIVE_INFINITY)}`)
    .join('\n\n');
}
