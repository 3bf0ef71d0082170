/**
 * CSV/TSV through papaparse ([F1]-[F3] in docs/FORMATS.md): the first non-blank record is the
 * header, every later record is rendered as `field: value` lines, so each record carries its field
 * names and any group of records reads on its own. Records are grouped up to SECTION_MAX_CHARS and
 * cited by record range ("people.csv, rows 2-40") plus the raw bytes those records occupy.
 * Streaming: only the group being filled is held, so a 100 MB file of short rows fits the
 * worker's heap; a locator reads back by parsing the header and its own bytes alone.
 * Runs in the worker: parsing 100 MB takes seconds, and a hostile file must not stall the engine.
 */
import Papa from 'papaparse';
import { SECTION_MAX_CHARS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { SEP_LINE, sniffDelimiter } from './delimited.ts';
import { makeByteMapper } from './offset-map.ts';
import { type DecodedText, decodeSlice, decodeText, isLegacyEncoding } from './text-decode.ts';
import type { Chunk, Extraction } from './types.ts';

/** [F2]: bounds on what one record renders to, so a 10,000-column row stays a readable chunk. */
export const MAX_FIELDS = 500;
const MAX_VALUE_CHARS = 1000;

/** A rendered record: its 1-based record number, its text, and the raw bytes it came from. */
type Row = { n: number; text: string; byteStart: number; byteEnd: number };

type Counts = { ragged: number; wide: number; long: number; unclosed: number | null; headerOnly: boolean };

type RawRecord = { n: number; fields: string[]; raw: string; byteStart: number; byteEnd: number };

type Newline = '\r' | '\n' | '\r\n';

type Header = { width: number; names: string[]; row: Row; delimiter: string; newline: Newline };

/** Parse settings fixed by the whole file, so a slice of it parses the same way. */
type Dialect = { delimiter: string; newline?: Newline };

const newCounts = (): Counts => ({ ragged: 0, wide: 0, long: 0, unclosed: null, headerOnly: false });

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

/**
 * Every record of `decoded` with its 1-based number and raw bytes (`base` is the byte offset of
 * the text in the file), until `onRecord` returns false; returns the row of a quote never closed.
 */
function readRecords(
  decoded: Pick<DecodedText, 'text' | 'encoding' | 'unitBytes'> & { base: number },
  dialect: Dialect,
  onRecord: (r: RawRecord, newline: Newline) => unknown,
): number | null {
  const { text } = decoded;
  const byteAt = makeByteMapper(text, decoded.encoding, decoded.base, decoded.unitBytes);
  let n = 0;
  let start = 0;
  let unclosed: number | null = null;
  Papa.parse<string[]>(text, {
    ...dialect,
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
      const newline = result.meta.linebreak as Newline;
      const line = text.slice(start, end);
      const raw = line.endsWith(newline) ? line.slice(0, -newline.length) : line;
      const record = {
        n,
        fields: result.data,
        raw,
        byteStart: byteAt(start),
        byteEnd: byteAt(start + raw.length),
      };
      start = end;
      if (onRecord(record, newline) === false) parser.abort();
    },
  });
  return unclosed;
}

const isBlank = (r: RawRecord) => r.fields.every((f) => f.trim() === '');

/** The header of a whole decoded file ([F2]: the first non-blank record that is no `sep=` line). */
function headerOf(r: RawRecord, newline: Newline, delimiter: string, counts: Counts): Header | null {
  if (isBlank(r) || SEP_LINE.test(r.raw.trim())) return null;
  const names = r.fields.slice(0, MAX_FIELDS).map((f) => clean(f, counts));
  const row = { n: r.n, byteStart: r.byteStart, byteEnd: r.byteEnd, text: names.filter(Boolean).join(' | ') };
  return { width: r.fields.length, names, row, delimiter, newline };
}

/** Walks a whole file: its header, then each rendered data row to `onRow`. */
function walkFile(decoded: DecodedText, counts: Counts, onRow: (row: Row) => void): Header | null {
  const delimiter = sniffDelimiter(decoded.text);
  let header: Header | null = null;
  counts.unclosed = readRecords({ ...decoded, base: decoded.dataStart }, { delimiter }, (r, newline) => {
    if (!header) {
      header = headerOf(r, newline, delimiter, counts);
      return;
    }
    if (isBlank(r)) return;
    if (r.fields.length !== header.width) counts.ragged++;
    const text = renderRecord(header.names, r.fields, counts);
    if (text) onRow({ n: r.n, text, byteStart: r.byteStart, byteEnd: r.byteEnd });
  });
  return header;
}

function healthOf(decoded: DecodedText, counts: Counts, chunks: number): string[] {
  const health = [...decoded.health];
  if (decoded.encoding !== 'utf-8' && !isLegacyEncoding(decoded.encoding))
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
  if (chunks === 0) health.push('no text (the file is blank)');
  return health;
}

function chunkOf(group: Row[], index: number, fileLabel: string): Chunk {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  return {
    key: `rows#${index + 1}`,
    label: fileLabel,
    body: group.map((r) => r.text).join('\n\n'),
    locator: {
      type: 'csv',
      rowStart: first.n,
      rowEnd: last.n,
      byteStart: first.byteStart,
      byteEnd: last.byteEnd,
    },
  };
}

/** Consecutive rows up to SECTION_MAX_CHARS of text, at least one row each. */
export async function extractCsv(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const decoded = decodeText(bytes);
  const counts = newCounts();
  const chunks: Chunk[] = [];
  let group: Row[] = [];
  let len = 0;
  const flush = () => {
    if (group.length > 0) chunks.push(chunkOf(group, chunks.length, fileLabel));
    group = [];
    len = 0;
  };
  const header = walkFile(decoded, counts, (row) => {
    if (group.length > 0 && len + 2 + row.text.length > SECTION_MAX_CHARS) flush();
    len += (group.length > 0 ? 2 : 0) + row.text.length;
    group.push(row);
  });
  flush();
  if (chunks.length === 0 && header?.row.text) {
    counts.headerOnly = true;
    chunks.push(chunkOf([header.row], 0, fileLabel));
  }
  return {
    title: null,
    occurredAt: null,
    datedBy: null,
    health: healthOf(decoded, counts, chunks.length),
    chunks,
  };
}

function stale(locator: { rowStart: number; rowEnd: number }): AppError {
  return new AppError('stale', `rows ${locator.rowStart}-${locator.rowEnd} are not where the locator says`);
}

/** [F3]: parses the header, then only the cited bytes, and renders them as extraction did. */
export async function readCsv(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'csv')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a CSV file`);
  const decoded = decodeText(bytes);
  const counts = newCounts();
  const delimiter = sniffDelimiter(decoded.text);
  let header: Header | null = null;
  readRecords({ ...decoded, base: decoded.dataStart }, { delimiter }, (r, nl) => {
    header = headerOf(r, nl, delimiter, counts);
    return header === null;
  });
  const h = header as Header | null;
  const { byteStart, byteEnd, rowStart, rowEnd } = locator;
  if (!h || byteStart < h.row.byteStart || byteEnd > decoded.dataEnd || byteStart >= byteEnd)
    throw stale(locator);
  if (byteStart === h.row.byteStart) {
    if (rowStart !== h.row.n || rowEnd !== h.row.n || byteEnd !== h.row.byteEnd) throw stale(locator);
    return h.row.text;
  }
  const slice = {
    ...decodeSlice(bytes.subarray(byteStart, byteEnd), decoded.encoding),
    encoding: decoded.encoding,
  };
  const texts: string[] = [];
  let records = 0;
  readRecords({ ...slice, base: byteStart }, { delimiter: h.delimiter, newline: h.newline }, (r) => {
    records++;
    const text = isBlank(r) ? '' : renderRecord(h.names, r.fields, counts);
    if (text) texts.push(text);
  });
  if (records !== rowEnd - rowStart + 1 || texts.length === 0) throw stale(locator);
  return texts.join('\n\n');
}

/** Every record's text, in order: each chunk's body is one stretch of it. */
export async function csvWholeText(bytes: Uint8Array): Promise<string> {
  const texts: string[] = [];
  const header = walkFile(decodeText(bytes), newCounts(), (row) => texts.push(row.text));
  if (texts.length === 0 && header?.row.text) return header.row.text;
  return texts.join('\n\n');
}
