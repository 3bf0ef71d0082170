/**
 * docs/OCR.md [O9]: a file "Read by OCR" keeps that choice (items.read_by_ocr, local to this
 * replica) until it is turned off; every index of it, a new version's or after a restart,
 * reads it so (indexer.ts).
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { ItemRow } from '../read/items.ts';

export type Reading = { id: string; label: string; ocr: boolean };

/**
 * Sets how the named files are read; every one must be a PDF (checked before any is set): a picture
 * is read by OCR anyway, so the choice would change nothing for it.
 */
export function setReadByOcr(db: Db, files: readonly ItemRow[], ocr: boolean): Reading[] {
  for (const f of files) {
    if (f.format !== 'pdf') {
      throw new AppError(
        'validation-failed',
        `${f.label} is not a PDF (${f.format ?? 'no format'}): only a PDF's text layer can be set aside for OCR.`,
      );
    }
  }
  writeTx(db, () => {
    const set = stmt(db, 'UPDATE items SET read_by_ocr = ? WHERE id = ?');
    for (const f of files) set.run(ocr ? 1 : 0, f.id);
  });
  return files.map((f) => ({ id: f.id, label: f.label, ocr }));
}
