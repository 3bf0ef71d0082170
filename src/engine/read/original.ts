/**
 * items.original: the stored bytes of a PDF file, or of the file a PDF passage was cut from, for
 * the dossier's page view ([F15] in docs/FORMATS.md). The item is looked up by id through the
 * reader's scopes exactly as reading its text is (visibleRow), and so is a section's file: a
 * caller never names a blob, so cannot fetch bytes they cannot see.
 */
import { statSync } from 'node:fs';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { BlobStore } from '../add/blobs.ts';
import type { Db } from '../db/driver.ts';
import { visibleRow } from './read.ts';

export type Original = {
  fileId: string;
  label: string;
  format: 'pdf';
  blob: string;
  size: number;
  base64: string;
};

export function readOriginal(db: Db, blobs: BlobStore, id: string, scopes: readonly string[]): Original {
  const row = visibleRow(db, id, scopes);
  if (row.storage_kind !== 'file' && row.storage_kind !== 'section')
    throw new AppError(
      'validation-failed',
      `${row.label} is a ${row.storage_kind}, not a PDF or a passage of one.`,
    );
  const file = row.storage_kind === 'file' ? row : row.file_id ? visibleRow(db, row.file_id, scopes) : null;
  if (!file) throw new AppError('not-found', `No file for ${id}.`);
  // A section keeps the hash of the bytes it was cut from: the page it cites is in those bytes.
  const blob = row.blob ?? file.blob;
  const format = row.format ?? file.format;
  if (format !== 'pdf')
    throw new AppError('validation-failed', `${file.label} is not a PDF (${format ?? 'no format'}).`);
  if (!blob) throw new AppError('not-found', `${file.label} has no stored bytes.`);
  // Measured before it is read: a blob over the limit is never loaded into memory.
  if (blobs.has(blob) && statSync(blobs.path(blob)).size > MAX_FILE_BYTES)
    throw new AppError('refused', `${file.label} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
  const bytes = blobs.get(blob);
  return {
    fileId: file.id,
    label: file.label,
    format,
    blob,
    size: bytes.length,
    base64: bytes.toString('base64'),
  };
}
