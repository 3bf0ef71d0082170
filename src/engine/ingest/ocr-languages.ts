/**
 * Which OCR languages can be chosen: those whose traineddata package (@tesseract.js-data/<code>)
 * is installed beside tesseract.js, and those the app ships itself in `resources/ocr/<code>` for
 * languages no such package exists for (Russian). Nothing is ever downloaded (docs/OCR.md [O2]).
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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

let combined: string | null = null;

/** This process's own folder for language sets, private to it and removed when it exits. */
function combinedRoot(): string {
  if (combined && existsSync(combined)) return combined;
  const dir = mkdtempSync(join(tmpdir(), 'org-brain-ocr-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  combined = dir;
  return dir;
}

/**
 * The folder tesseract.js reads a run's languages from. tesseract.js takes one `langPath` for all
 * the languages of a run, and each language's data sits in its own package's folder, so a set of
 * several gets a folder of its own holding a link to each language's file (a copy where links
 * cannot be made) in this process's private temporary folder ([O2] in docs/OCR.md). Null when a
 * language's data is not installed.
 */
export function langPathFor(codes: readonly string[]): string | null {
  if (codes.length === 1) return langPathOf(codes[0] as string);
  const sources = codes.map((code) => ({ code, dir: langPathOf(code) }));
  if (sources.length === 0 || sources.some((s) => s.dir === null)) return null;
  const dir = join(combinedRoot(), codes.join('+'));
  if (existsSync(dir)) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  for (const { code, dir: from } of sources) {
    const file = `${code}.traineddata.gz`;
    try {
      symlinkSync(join(from as string, file), join(partial, file));
    } catch {
      copyFileSync(join(from as string, file), join(partial, file));
    }
  }
  // Whole or not at all: a folder missing a language would fail every page read with it.
  renameSync(partial, dir);
  return dir;
}
