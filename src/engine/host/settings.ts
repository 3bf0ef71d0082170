/** Settings kept in the workspace: small, typed, with defaults. */
import type { Settings } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { DEFAULT_OCR_LANGUAGES, installedOcrLanguages } from '../ingest/ocr-languages.ts';

const DEFAULTS = { indexOnAdd: false };

function stored(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  return row?.value;
}

function put(db: Db, key: string, value: string): void {
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}

/** The OCR languages indexing uses ([O2] in docs/OCR.md): the stored ones still installed, else English. */
function ocrLanguagesOf(db: Db): string[] {
  const installed = installedOcrLanguages();
  const chosen = (stored(db, 'ocrLanguages') ?? '').split('+').filter((c) => installed.includes(c));
  return chosen.length > 0 ? chosen : DEFAULT_OCR_LANGUAGES;
}

/**
 * The OCR options for reading a file of this format: its languages for a PDF or a picture, none
 * for a format OCR never reads (no look at the installed languages, a directory listing, for it).
 */
export function ocrOptionsFor(db: Db, format: string): { ocrLanguages?: string[] } {
  return format === 'pdf' || format === 'image' ? { ocrLanguages: ocrLanguagesOf(db) } : {};
}

export function readSettings(db: Db, extra: { dataFolder: string; user: string }): Settings {
  const indexOnAdd = stored(db, 'indexOnAdd');
  return {
    indexOnAdd: indexOnAdd ? indexOnAdd === 'true' : DEFAULTS.indexOnAdd,
    ocrLanguages: ocrLanguagesOf(db),
    ocrLanguagesAvailable: installedOcrLanguages(),
    ...extra,
  };
}

export function writeSettings(db: Db, patch: { indexOnAdd?: boolean; ocrLanguages?: string[] }): void {
  if (patch.ocrLanguages) {
    const installed = installedOcrLanguages();
    const missing = patch.ocrLanguages.filter((c) => !installed.includes(c));
    if (missing.length > 0) {
      throw new AppError(
        'validation-failed',
        `no OCR data installed for ${missing.join(', ')} (installed: ${installed.join(', ') || 'none'})`,
      );
    }
    put(db, 'ocrLanguages', patch.ocrLanguages.join('+'));
  }
  if (patch.indexOnAdd !== undefined) put(db, 'indexOnAdd', String(patch.indexOnAdd));
}
