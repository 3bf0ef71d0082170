/**
 * Which OCR languages can be chosen: those whose traineddata package (@tesseract.js-data/<code>)
 * is installed beside tesseract.js. Nothing is ever downloaded (docs/OCR.md [O2]).
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const DEFAULT_OCR_LANGUAGES = ['eng'];

// Not named `require`: the bundler declares its own `require` shim in ESM chunks that use one.
const fromHere = createRequire(import.meta.url);

/** The folder holding every installed @tesseract.js-data package. */
function dataRoot(): string | null {
  try {
    return dirname(dirname(fromHere.resolve('@tesseract.js-data/eng')));
  } catch {
    return null;
  }
}

/** The LSTM-only integer models ("best_int"): the smallest data, and what docs/OCR.md measured. */
export function langPathOf(code: string): string | null {
  const root = dataRoot();
  if (!root || !/^[a-z_]{3,12}$/.test(code)) return null;
  const dir = join(root, code, '4.0.0_best_int');
  return existsSync(join(dir, `${code}.traineddata.gz`)) ? dir : null;
}

export function installedOcrLanguages(): string[] {
  const root = dataRoot();
  if (!root) return [];
  return readdirSync(root)
    .filter((code) => code !== 'osd' && langPathOf(code) !== null)
    .sort();
}
