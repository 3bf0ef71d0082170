/**
 * docs/OCR.md [O9]: a file "Read by OCR" keeps that choice (items.read_by_ocr, local to this
 * replica) until it is turned off; every index of it, a new version's or after a restart,
 * reads it so (indexer.ts).
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { ItemRow } from '../read/items.ts';

/** The formats OCR reads: a PDF's scanned pages, and pictures (which are read by OCR anyway). */
const OCR_FORMATS = new Set(['pdf', 'image']);

export type Reading = { id: string; label: string; ocr: boolean };

/** Sets how the named files are read; every one must be a PDF or a picture (checked before any is set). */
export function setReadByOcr(db: Db, files: readonly ItemRow[], ocr: boolean): Reading[] {
  for (const f of files) {
    if (!OCR_FORMATS.has(f.format ?? '')) {
      throw new AppError(
        'validation-failed',
        `${f.label} is not a PDF or a picture (${f.format ?? 'no format'}): only those are read by OCR.`,
      );
    }
  }
  writeTx(db, () => {
    const set = stmt(db, 'UPDATE items SET read_by_ocr = ? WHERE id = ?');
    for (const f of files) set.run(ocr ? 1 : 0, f.id);
  });
  return files.map((f) => ({ id: f.id, label: f.label, ocr }));
}
