/**
 * `read`: a whole item, or exactly the range a citation names, so no one loads a 40-page document
 * to answer one question. A section records the hash of the bytes it was cut from; when its file
 * has changed since, reading it says so (stale) instead of returning other text.
 */
import { AppError } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import type { Citation, FileFormat, StorageKind } from '#shared/types.ts';
import type { BlobStore } from '../add/blobs.ts';
import type { Db } from '../db/driver.ts';
import { ocrOptionsFor } from '../host/settings.ts';
import { readLocator, readWholeText } from '../ingest/index.ts';
import { canSee } from '../scope.ts';
import { citationOf } from '../search/search.ts';
import { getRow, type ItemRow, parseLocator } from './items.ts';
import { indexedText, lockedOr } from './locked-text.ts';

export type ReadResult = {
  id: string;
  label: string;
  storageKind: StorageKind;
  kind: string;
  scope: string;
  text: string;
  /** 1-based line number of the first line of `text` in the whole document, where lines exist. */
  firstLine: number;
  lineStart: number;
  lineEnd: number;
  citation: Citation | null;
};

export type LineRange = { from: number; to: number };

export function parseLineRange(spec: string): LineRange {
  const m = /^(\d+)(?:-(\d+))?$/.exec(spec.trim());
  const from = Number(m?.[1]);
  const to = m?.[2] === undefined ? from : Number(m[2]);
  if (!m || from < 1 || to < from) {
    throw new AppError('validation-failed', `--lines takes A-B with 1 <= A <= B (got "${spec}").`);
  }
  return { from, to };
}

export function visibleRow(db: Db, id: string, scopes: readonly string[]): ItemRow {
  const row = getRow(db, id);
  // An item outside the caller's scopes does not exist for them: same answer as a missing id.
  if (!row || !canSee(scopes, row.scope)) throw new AppError('not-found', `No item with id ${id}.`);
  return row;
}

export async function readItem(
  db: Db,
  blobs: BlobStore,
  id: string,
  scopes: readonly string[],
  lines?: LineRange,
): Promise<ReadResult> {
  const row = visibleRow(db, id, scopes);
  const { text, firstLine, file } = await textOf(db, blobs, row, scopes);
  const all = text.split('\n');
  const lastLine = firstLine + all.length - 1;
  let from = firstLine;
  let to = lastLine;
  if (lines) {
    if (lines.from > lastLine || lines.to < firstLine)
      throw outOfRange(row.label, lines, firstLine, lastLine);
    from = Math.max(lines.from, firstLine);
    to = Math.min(lines.to, lastLine);
  }
  return {
    id: row.id,
    label: row.label,
    storageKind: row.storage_kind,
    kind: row.kind,
    scope: row.scope,
    text: lines ? all.slice(from - firstLine, to - firstLine + 1).join('\n') : text,
    firstLine,
    lineStart: from,
    lineEnd: to,
    citation: citationOf(row, file),
  };
}

/**
 * A range that misses the item, in words: the line asked for and the lines there are. `lines.to` is
 * never named, as a read from a line on asks up to the largest number (src/engine/commands/retrieval.ts).
 */
function outOfRange(label: string, lines: LineRange, firstLine: number, lastLine: number): AppError {
  const has =
    firstLine === 1
      ? `${label} has ${plural(lastLine, 'line')}`
      : `${label} has lines ${firstLine}-${lastLine}`;
  if (lines.from > lastLine)
    return new AppError('validation-failed', `line ${lines.from} is past the end: ${has}.`);
  return new AppError('validation-failed', `line ${lines.to} is before the start: ${has}.`);
}

export async function textOf(
  db: Db,
  blobs: BlobStore,
  row: ItemRow,
  scopes: readonly string[],
): Promise<{ text: string; firstLine: number; file?: ItemRow }> {
  if (row.storage_kind === 'file') {
    if (!row.blob || !row.format) throw new AppError('not-found', `${row.label} has no stored bytes.`);
    const text = await lockedOr(
      row,
      () =>
        readWholeText(blobs.get(row.blob!), row.format as FileFormat, {
          ...ocrOptionsFor(db, row.format!),
          // As the file was indexed: by OCR, its text layer ignored (docs/OCR.md [O9]).
          forceOcr: row.read_by_ocr === 1,
        }),
      () => indexedText(db, row),
    );
    return { text, firstLine: 1, file: row };
  }
  if (row.storage_kind !== 'section' || !row.file_id) return { text: row.body, firstLine: 1 };
  const file = visibleRow(db, row.file_id, scopes);
  const locator = parseLocator(row.locator);
  if (!locator || !row.blob || !row.format) return { text: row.body, firstLine: 1, file };
  if (file.blob !== row.blob || row.retired_at !== null) {
    throw new AppError(
      'stale',
      `${file.label} has changed since this passage was indexed (cited bytes ${row.blob.slice(0, 12)}…, ` +
        `file now ${(file.blob ?? '').slice(0, 12)}…). Index the file again and search anew.`,
      { fileId: file.id },
    );
  }
  const blob = row.blob;
  const text = await lockedOr(
    file,
    () => readLocator(blobs.get(blob), row.format as FileFormat, locator),
    () => row.body,
  );
  return { text, firstLine: 'lineStart' in locator ? locator.lineStart : 1, file };
}
