/**
 * OCR through tesseract.js (docs/OCR.md [O1]), inside the extraction worker. One tesseract worker
 * per language set is kept between pages; a page past its time bound gets that worker terminated
 * and fails alone ([O4]). The text of a page is its lines in reading order, a blank line between
 * paragraphs; every line keeps its character range and its box ([O5]).
 */
import { createWorker, type Worker } from 'tesseract.js';
import { OCR_LANGUAGES_MAX } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { Bbox } from '#shared/types.ts';
import { langPathFor, langPathOf } from './ocr-languages.ts';

const OCR_PAGE_TIMEOUT_MS = 90_000;

export type OcrLine = { start: number; end: number; bbox: Bbox };
export type OcrText = { text: string; lines: OcrLine[]; confidence: number };

let current: { langs: string; worker: Promise<Worker> } | null = null;

/** The run's languages (`rus+eng`) and the one folder their data is read from ([O2] in docs/OCR.md). */
function languagePath(langs: string[]): { code: string; langPath: string } {
  if (langs.length === 0 || langs.length > OCR_LANGUAGES_MAX) {
    throw new AppError(
      'refused',
      `OCR reads 1 to ${OCR_LANGUAGES_MAX} languages at once (asked for "${langs.join('+')}")`,
    );
  }
  const missing = langs.filter((code) => langPathOf(code) === null);
  if (missing.length > 0) {
    throw new AppError('refused', `no OCR data installed for language "${missing.join('", "')}"`);
  }
  const langPath = langPathFor(langs);
  if (!langPath) throw new AppError('refused', `no OCR data installed for "${langs.join('+')}"`);
  return { code: langs.join('+'), langPath };
}

function workerFor(langs: string[]): Promise<Worker> {
  const key = langs.join('+');
  if (current?.langs === key) return current.worker;
  void dropWorker();
  // LSTM only (oem 1); nothing is read from or written to a cache, nothing is fetched ([O2]).
  const { code, langPath } = languagePath(langs);
  const worker = createWorker(code, 1, { langPath, cacheMethod: 'none', gzip: true }).then(async (w) => {
    // Tesseract's own warnings ("Invalid resolution") would land on the CLI's stdout, next to JSON.
    await w.setParameters({ debug_file: '/dev/null' });
    return w;
  });
  current = { langs: key, worker };
  worker.catch(() => {
    if (current?.worker === worker) current = null;
  });
  return worker;
}

/** Terminates the tesseract worker (after a timeout, or when the languages change). */
async function dropWorker(): Promise<void> {
  const old = current;
  current = null;
  if (old) await (await old.worker.catch(() => null))?.terminate().catch(() => undefined);
}

type Page = Awaited<ReturnType<Worker['recognize']>>['data'];

/** Lines in reading order; paragraphs end with a blank line. Whitespace inside a line is kept as read. */
function layout(page: Page): OcrText {
  let text = '';
  const lines: OcrLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const para of block.paragraphs) {
      if (text && !text.endsWith('\n\n')) text += '\n';
      for (const line of para.lines) {
        const words = line.text.replace(/\s+$/, '');
        if (!words.trim()) continue;
        const { x0, y0, x1, y1 } = line.bbox;
        lines.push({ start: text.length, end: text.length + words.length, bbox: [x0, y0, x1, y1] });
        text += `${words}\n`;
      }
    }
  }
  return { text: text.replace(/\n+$/, ''), lines, confidence: page.confidence };
}

/** OCR of one encoded image (PNG), bounded by `timeoutMs`. */
export async function recognize(
  png: Buffer,
  langs: string[],
  timeoutMs = OCR_PAGE_TIMEOUT_MS,
): Promise<OcrText> {
  const worker = await workerFor(langs);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void dropWorker();
      reject(new AppError('refused', `OCR took longer than ${timeoutMs / 1000} s`));
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([worker.recognize(png, {}, { text: true, blocks: true }), late]);
    return layout(result.data);
  } finally {
    clearTimeout(timer);
  }
}

/** The union box of the lines that overlap the character range [start, end). */
export function boxOf(lines: OcrLine[], start: number, end: number): Bbox | undefined {
  const hit = lines.filter((l) => l.start < end && l.end > start);
  if (hit.length === 0) return undefined;
  return [
    Math.min(...hit.map((l) => l.bbox[0])),
    Math.min(...hit.map((l) => l.bbox[1])),
    Math.max(...hit.map((l) => l.bbox[2])),
    Math.max(...hit.map((l) => l.bbox[3])),
  ];
}
