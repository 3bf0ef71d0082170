/**
 * Which OCR languages can be chosen: those whose traineddata package (@tesseract.js-data/<code>)
 * is installed beside tesseract.js, and those the app ships itself in `resources/ocr/<code>` for
 * languages no such package exists for (Russian). Nothing is ever downloaded (docs/OCR.md [O2]).
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../util/repo-root.ts';

export const DEFAULT_OCR_LANGUAGES = ['eng'];

// Not named `require`: the bundler declares its own `require` shim in ESM chunks that use one.
const fromHere = createRequire(import.meta.url);

const CODE = /^[a-z_]{3,12}$/;

/** The folder holding every installed @tesseract.js-data package. */
function dataRoot(): string | null {
  try {
    return dirname(dirname(fromHere.resolve('@tesseract.js-data/eng')));
  } catch {
    return null;
  }
}

/**
 * The app's own traineddata ([O7] in docs/OCR.md): `<resources>/ocr` in a packaged app (an extra
 * resource beside app.asar), else `resources/ocr` in the repository.
 */
function shippedRoot(): string | null {
  const candidates = [
    (process as { resourcesPath?: string }).resourcesPath,
    join(findRepoRoot() ?? '.', 'resources'),
  ];
  return (
    candidates
      .filter((d): d is string => Boolean(d))
      .map((d) => join(d, 'ocr'))
      .find((d) => existsSync(d)) ?? null
  );
}

/**
 * The folder tesseract.js reads `<code>.traineddata.gz` from: a package's LSTM-only integer
 * models ("best_int": the smallest data, and what docs/OCR.md measured), else the app's own.
 */
export function langPathOf(code: string): string | null {
  if (!CODE.test(code)) return null;
  const root = dataRoot();
  const fromPackage = root ? join(root, code, '4.0.0_best_int') : null;
  if (fromPackage && existsSync(join(fromPackage, `${code}.traineddata.gz`))) return fromPackage;
  const shipped = shippedRoot();
  const own = shipped ? join(shipped, code) : null;
  return own && existsSync(join(own, `${code}.traineddata.gz`)) ? own : null;
}

export function installedOcrLanguages(): string[] {
  const codes = new Set<string>();
  for (const root of [dataRoot(), shippedRoot()]) {
    if (!root || !existsSync(root)) continue;
    for (const code of readdirSync(root)) if (code !== 'osd' && langPathOf(code) !== null) codes.add(code);
  }
  return [...codes].sort();
}
