/**
 * CSV/TSV through papaparse ([F1]-[F3] in docs/FORMATS.md): the first non-blank record is the
 * header, every later record is rendered as `field: value` lines, so each record carries its field
 * names and any group of records reads on its own. Records are grouped up to SECTION_MAX_CHARS and
 * cited by record range ("people.csv, rows 2-40") plus the raw bytes those records occupy.
 * Runs in the worker: parsing 100 MB takes seconds, and a hostile file must not stall the engine.
 */
import Papa from 'papaparse';
import { SECTION_MAX_CHARS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { SEP_LINE, sniffDelimiter } from './delimited.ts';
import { makeByteMapper } from './offset-map.ts';
import { type DecodedText, decodeText } from './text-decode.ts';
import type { Chunk, Extraction } from './types.ts';
import { bytesKey, cached } from './worker-cache.ts';

/** [F2]: bounds on what one record renders to, so a 10,000-column row stays a readable chunk. */
export const MAX_FIELDS = 500;
const MAX_VALUE_CHARS = 1000;

/** A rendered record: its 1-based record number, its text, and the raw bytes it came from. */
type Row = { n: number; text: string; byteStart: number; byteEnd: number };

type Table = { rows: Row[]; health: string[] };

type Counts = { ragged: number; wide: number; long: number; unclosed: number | null; headerOnly: boolean };

function clean(value: string, counts: Counts): string {
  const v = value.replace(/\s+/g, ' ').trim();
  if (v.length <= MAX_VALUE_CHARS) return v;
  counts.long++;
  return `${v.slice(0, MAX_VALUE_CHARS)}…`;
}

function renderRecord(names: string[], fields: string[], counts: Counts): string {
  if (fields.length > MAX_FIELDS) counts.wide++;
  const lines: string[] = [];
  fields.slice(0, MAX_FIELDS).forEach((f, i) => {
    const value = clean(f, counts);
    if (value) lines.push(`${names[i] || `column ${i + 1}`}: ${value}`);
  });
  return lines.join('\n');
}

function healthOf(decoded: DecodedText, counts: Counts, rows: Row[]): string[] {
  const health = [...decoded.health];
  if (decoded.encoding !== 'utf-8' && decoded.encoding !== 'windows-1252')
    health.push(`encoding: ${decoded.encoding}`);
  if (counts.unclosed !== null)
    health.push(
      `a quote opened in row ${counts.unclosed} is never closed: rows from ${counts.unclosed} on were not read`,
    );
  if (counts.ragged > 0)
    health.push(`${counts.ragged} rows have a different number of fields than the header`);
  if (counts.wide > 0)
    health.push(`${counts.wide} rows have more than ${MAX_FIELDS} fields: the rest are not read`);
  if (counts.long > 0)
    health.push(`${counts.long} values longer than ${MAX_VALUE_CHARS} characters were cut`);
  if (counts.headerOnly) health.push('only a header row (no records)');
  if (rows.length === 0) health.push('no text (the file is blank)');
  return health;
}

type RawRecord = { n: number; fields: string[]; raw: string; byteStart: number; byteEnd: number };

/** Every record with its 1-based number and raw bytes; returns the row of a quote never closed. */
function readRecords(decoded: DecodedText, onRecord: (r: RawRecord) => void): number | null {
  const { text } = decoded;
  const byteAt = makeByteMapper(text, decoded.encoding, decoded.dataStart);
  let n = 0;
  let start = 0;
  let unclosed: number | null = null;
  Papa.parse<string[]>(text, {
    delimiter: sniffDelimiter(text),
    skipEmptyLines: false,
    step: (result, parser) => {
      n++;
      // [F3]: papaparse swallows the rest of the file into a field whose quote never closes.
      if (result.errors.some((e) => e.code === 'MissingQuotes')) {
        unclosed = n;
        parser.abort();
        return;
      }
      const end = result.meta.cursor;
      const raw = text.slice(start, end).replace(/\r?\n$/, '');
      onRecord({
        n,
        fields: result.data,
        raw,
        byteStart: byteAt(start),
        byteEnd: byteAt(start + raw.length),
      });
      start = end;
    },
  });
  return unclosed;
}

type Header = { width: number; names: string[]; row: Row };

function parseTable(bytes: Uint8Array): Table {
  const decoded = decodeText(bytes);
  const counts: Counts = { ragged: 0, wide: 0, long: 0, unclosed: null, headerOnly: false };
  const rows: Row[] = [];
  const head: { value: Header | null } = { value: null };
  counts.unclosed = readRecords(decoded, (r) => {
    if (r.fields.every((f) => f.trim() === '')) return;
    const span = { n: r.n, byteStart: r.byteStart, byteEnd: r.byteEnd };
    const header = head.value;
    if (!header) {
      if (SEP_LINE.test(r.raw.trim())) return;
      const names = r.fields.slice(0, MAX_FIELDS).map((f) => clean(f, counts));
      head.value = {
        width: r.fields.length,
        names,
        row: { ...span, text: names.filter(Boolean).join(' | ') },
      };
      return;
    }
    if (r.fields.length !== header.width) counts.ragged++;
    const text = renderRecord(header.names, r.fields, counts);
    if (text) rows.push({ ...span, text });
  });
  if (head.value && rows.length === 0 && head.value.row.text) {
    counts.headerOnly = true;
    rows.push(head.value.row);
  }
  return { rows, health: healthOf(decoded, counts, rows) };
}

function table(bytes: Uint8Array): Promise<Table> {
  return cached(bytesKey('csv', bytes), async () => parseTable(bytes));
}

/** Consecutive rows up to SECTION_MAX_CHARS of text, at least one row each. */
function rowGroups(rows: Row[]): Row[][] {
  const groups: Row[][] = [];
  let current: Row[] = [];
  let len = 0;
  for (const r of rows) {
    if (current.length > 0 && len + 2 + r.text.length > SECTION_MAX_CHARS) {
      groups.push(current);
      current = [];
      len = 0;
    }
    len += (current.length > 0 ? 2 : 0) + r.text.length;
    current.push(r);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function groupLocator(group: Row[]): Locator {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  return {
    type: 'csv',
    rowStart: first.n,
    rowEnd: last.n,
    byteStart: first.byteStart,
    byteEnd: last.byteEnd,
  };
}

export async function extractCsv(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const t = await table(bytes);
  const chunks: Chunk[] = rowGroups(t.rows).map((g, i) => ({
    key: `rows#${i + 1}`,
    label: fileLabel,
    body: g.map((r) => r.text).join('\n\n'),
    locator: groupLocator(g),
  }));
  return { title: null, occurredAt: null, datedBy: null, health: t.health, chunks };
}

/** The records rowStart..rowEnd, refused as stale unless they still span the cited bytes. */
export async function readCsv(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'csv')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a CSV file`);
  const rows = (await table(bytes)).rows.filter((r) => r.n >= locator.rowStart && r.n <= locator.rowEnd);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last || first.byteStart !== locator.byteStart || last.byteEnd !== locator.byteEnd) {
    throw new AppError('stale', `rows ${locator.rowStart}-${locator.rowEnd} are not where the locator says`);
  }
  return rows.map((r) => r.text).join('\n\n');
}

/** Every record's text, in order: each chunk's body is one stretch of it. */
export async function csvWholeText(bytes: Uint8Array): Promise<string> {
  return (await table(bytes)).rows.map((r) => r.text).join('\n\n');
}
