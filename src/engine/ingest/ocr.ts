/**
 * OCR through tesseract.js (docs/OCR.md [O1]), inside the extraction worker. One tesseract worker
 * per language set is kept between pages; a page past its time bound gets that worker terminated
 * and fails alone ([O4]). The text of a page is its lines in reading order, a blank line between
 * paragraphs; every line keeps its character range and its box ([O5]).
 */
import sharp from 'sharp';
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

/** Turned clockwise by this many degrees before it was read (docs/OCR.md [O8]). */
export type Rotation = 0 | 90 | 180 | 270;

/** A page read as it lies at least this well (clarity, 0–100) is upright enough: no turn is tried. */
const UPRIGHT_CLARITY = 50;
/** A turned reading replaces the upright one only when it is this much clearer. */
const TURN_BETTER_BY = 15;

/**
 * How clearly a reading reads, 0–100: tesseract's mean confidence times the share of its words
 * that hold three letters or digits in a row. A page read on its side gives scraps ("g 2", "Oo
 * m3") that tesseract may still be 60 % sure of; words and figures are what it does not give.
 */
export function clarity(read: Pick<OcrText, 'text' | 'confidence'>): number {
  const words = read.text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return 0;
  const wordy = words.filter((w) => /[\p{L}\p{N}]{3}/u.test(w)).length;
  return read.confidence * (wordy / words.length);
}

/**
 * A box read on the picture turned `rotation` degrees clockwise, in the picture's own pixels
 * (`width` x `height` before turning), so a locator's box is the same whichever way it was read.
 */
export function unturnBox([x0, y0, x1, y1]: Bbox, rotation: Rotation, width: number, height: number): Bbox {
  if (rotation === 90) return [y0, height - x1, y1, height - x0];
  if (rotation === 180) return [width - x1, height - y1, width - x0, height - y0];
  if (rotation === 270) return [width - y1, x0, width - y0, x1];
  return [x0, y0, x1, y1];
}

/**
 * OCR of a picture turned `rotation` degrees clockwise, every box given back in the picture's own
 * pixels. Read-back of a locator that records its turn reads once, at that turn ([O8]).
 */
async function recognizeTurned(
  png: Buffer,
  langs: string[],
  rotation: Rotation,
  timeoutMs = OCR_PAGE_TIMEOUT_MS,
): Promise<OcrText & { rotation: Rotation }> {
  if (rotation === 0) return { ...(await recognize(png, langs, timeoutMs)), rotation };
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const turned = await sharp(png).rotate(rotation).png().toBuffer();
  const read = await recognize(turned, langs, timeoutMs);
  return {
    ...read,
    rotation,
    lines: read.lines.map((l) => ({ ...l, bbox: unturnBox(l.bbox, rotation, width, height) })),
  };
}

/**
 * OCR of a picture that may lie on its side or upside down ([O8] in docs/OCR.md): read as it
 * lies; when that reads poorly (clarity under 50), also turned 90°, 270° and 180°, keeping the
 * turn that reads clearly better (15 points more). Every box is given back in the
 * picture's own pixels. All the tries share the one time bound of a page.
 */
async function recognizeUpright(
  png: Buffer,
  langs: string[],
  timeoutMs = OCR_PAGE_TIMEOUT_MS,
): Promise<OcrText & { rotation: Rotation }> {
  const started = Date.now();
  const left = () => Math.max(1, timeoutMs - (Date.now() - started));
  const upright = await recognizeTurned(png, langs, 0, left());
  if (clarity(upright) >= UPRIGHT_CLARITY) return upright;
  let best = upright;
  let bestClarity = clarity(upright) + TURN_BETTER_BY;
  for (const rotation of [90, 270, 180] as const) {
    const read = await recognizeTurned(png, langs, rotation, left());
    if (clarity(read) > bestClarity) {
      bestClarity = clarity(read);
      best = read;
    }
    if (best.rotation !== 0 && bestClarity >= UPRIGHT_CLARITY + TURN_BETTER_BY) break;
  }
  return best;
}

/** Read at the turn a locator recorded, or, for one made before turns were kept, find it again. */
export function recognizeAt(
  png: Buffer,
  langs: string[],
  turn: Rotation | undefined,
): Promise<OcrText & { rotation: Rotation }> {
  return turn === undefined ? recognizeUpright(png, langs) : recognizeTurned(png, langs, turn);
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
