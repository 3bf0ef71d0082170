/**
 * PDF through unpdf (pdf.js): one text per page, flat chunks within each page. Runs in the worker.
 * A page without a text layer is read by OCR from its largest image (docs/OCR.md [O3], [O4]); in a
 * file "Read by OCR" every page is, its text layer ignored, and its locators say so (`forced`, [O9]).
 */
import { getDocumentProxy } from 'unpdf';
import { AppError } from '#shared/errors.ts';
import { needsPasswordReason, UNLOCKED_NOTE, WRONG_PASSWORD } from '#shared/password.ts';
import { pdfPageText } from '#shared/pdf-text.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { firstDate } from './document-date.ts';
import { boxOf, type OcrLine, type Rotation } from './ocr.ts';
import { packagedDataOptions } from './pdf-data.ts';
import { pageImages } from './pdf-images.ts';
import { type OcrPage, ocrPage } from './pdf-ocr.ts';
import './array-buffer-transfer.ts';
import { flatPieces } from './sections.ts';
import type { Chunk, Extraction, PageProgress } from './types.ts';
import { bytesKey, cached, forget, peek } from './worker-cache.ts';

type PdfDoc = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfMeta = { title: string | null; occurredAt: string | null; datedBy: string | null };
/** `ocr[i]` holds the boxes of page i+1's lines when that page was read by OCR, `turns[i]` its turn. */
/** Told after each page is read, with its number and the page count. */
type OnPage = (progress: PageProgress) => void;
/** `forced`: every page was read by OCR, text layers ignored ([O9]). */
type PdfText = PdfMeta & {
  langs: string;
  forced: boolean;
  pages: string[];
  ocr: (OcrLine[] | null)[];
  turns: (Rotation | null)[];
  notes: string[];
};

/** pdf.js's PasswordException codes: none given, or the one given is not the document's. */
const NEED_PASSWORD = 1;
const INCORRECT_PASSWORD = 2;

function passwordCode(err: unknown): number | null {
  if (!(err instanceof Error) || err.name !== 'PasswordException') return null;
  return (err as Error & { code?: number }).code ?? NEED_PASSWORD;
}

/** docs/FORMATS.md [F11]: a PDF that needs a password fails with the reason the app recognises. */
function pdfError(err: unknown, fileLabel: string): AppError {
  if (err instanceof AppError) return err;
  const code = passwordCode(err);
  if (code === INCORRECT_PASSWORD) return new AppError('refused', `${WRONG_PASSWORD}${fileLabel}`);
  if (code !== null) return new AppError('refused', needsPasswordReason('PDF'));
  const reason = err instanceof Error ? err.message : String(err);
  return new AppError('refused', `corrupt or unreadable PDF: ${reason.slice(0, 200)}`);
}

/**
 * The same text unpdf's extractText gives a page: item strings, a newline after end-of-line items
 * ([F15] in docs/FORMATS.md; the dossier's page view counts characters with the same rule).
 */
async function pageText(doc: PdfDoc, page: number): Promise<string> {
  const proxy = await doc.getPage(page);
  const content = await proxy.getTextContent();
  const { text } = pdfPageText(content.items);
  proxy.cleanup();
  return text;
}

/** PDF dates look like D:YYYYMMDDHHmmSS+HH'mm'; anything unparseable is dropped. */
export function pdfDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = raw.match(/^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/);
  if (!m) return null;
  const [y, mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m.slice(1, 7);
  const zone =
    m[7] && m[7] !== 'Z' ? `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5) || '00'}` : 'Z';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Producers often store a file name ("Binder1.pdf", "Microsoft Word - x.doc") as the title: not a title. */
export function pdfTitle(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const title = raw.replace(/^Microsoft (Word|PowerPoint|Excel) - /, '').trim();
  if (
    !title ||
    /\.[A-Za-z0-9]{2,4}$/.test(title) ||
    /^(Presentation|Document|Book|untitled)\d*$/i.test(title)
  )
    return null;
  return title;
}

/**
 * The title, and the document's date ([R2] in docs/RETRIEVAL.md): ModDate, the last time it was
 * written, else CreationDate.
 */
async function metadata(doc: PdfDoc): Promise<PdfMeta> {
  try {
    const { info } = await doc.getMetadata();
    const record = info as Record<string, unknown>;
    const dated = firstDate([
      { value: pdfDate(record.ModDate), from: 'PDF ModDate' },
      { value: pdfDate(record.CreationDate), from: 'PDF CreationDate' },
    ]);
    return { title: pdfTitle(record.Title), occurredAt: dated?.at ?? null, datedBy: dated?.from ?? null };
  } catch {
    return { title: null, occurredAt: null, datedBy: null };
  }
}

/**
 * [F12] in docs/FORMATS.md: the passwords to try, in order. The pdf.js inside unpdf turns an R5/R6
 * password into bytes one UTF-16 code unit each, where the standard wants its UTF-8 bytes (fixed
 * upstream in pdf.js 5f09f797a, not yet in any unpdf): a non-ASCII password is tried as given, then
 * as the Latin-1 string of its UTF-8 bytes, which pdf.js turns into exactly those bytes.
 */
export function pdfPasswords(password: string): string[] {
  if ([...password].every((c) => c.charCodeAt(0) < 0x80)) return [password];
  return [password, Buffer.from(password, 'utf8').toString('latin1')];
}

/**
 * Opens the document with each password to try; the last try is none, for a PDF that needs no
 * password at all (pdf.js refuses any given to one whose user password is empty). `unlocked`: a
 * password opened it. A password that fails every try is the wrong one.
 */
function isEncryptedPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/Encrypt');
}

async function openPdf(
  bytes: Uint8Array,
  password: string | undefined,
): Promise<{ doc: PdfDoc; unlocked: boolean }> {
  const tries = password === undefined ? [undefined] : [...pdfPasswords(password), undefined];
  let wrong: unknown = null;
  for (const pw of tries) {
    try {
      // pdf.js detaches the buffer it is given, so each try gets its own copy.
      const doc = await getDocumentProxy(new Uint8Array(bytes), {
        verbosity: 0,
        isEvalSupported: false,
        ...packagedDataOptions(),
        ...(pw === undefined ? {} : { password: pw }),
      });
      // pdf.js ignores a password given to a PDF that is not encrypted.
      return { doc, unlocked: pw !== undefined && isEncryptedPdf(bytes) };
    } catch (err) {
      const code = passwordCode(err);
      if (code === INCORRECT_PASSWORD) {
        wrong = err;
        continue;
      }
      // Opening with no password needs one: the one given was wrong.
      throw code === NEED_PASSWORD && wrong ? wrong : err;
    }
  }
  throw wrong;
}

async function withPdf<T>(
  bytes: Uint8Array,
  use: (doc: PdfDoc, unlocked: boolean) => Promise<T>,
  unlock: { password?: string; fileLabel: string } = { fileLabel: 'the PDF' },
): Promise<T> {
  let doc: PdfDoc | null = null;
  try {
    const opened = await openPdf(bytes, unlock.password);
    doc = opened.doc;
    return await use(doc, opened.unlocked);
  } catch (err) {
    throw pdfError(err, unlock.fileLabel);
  } finally {
    await doc?.destroy().catch(() => undefined);
  }
}

/**
 * With no OCR languages (null) a page is its text layer only; else [O3] decides whether to OCR it,
 * or, `forced`, it is OCR'd whatever its layer holds ([O9]).
 */
async function pageContent(
  doc: PdfDoc,
  page: number,
  langs: string[] | null,
  turn?: Rotation,
  forced = false,
): Promise<OcrPage> {
  const layer = await pageText(doc, page);
  if (!langs) return { text: layer, lines: null, turn: null, note: null };
  return ocrPage(layer, () => pageImages(doc, page), langs, page, turn, forced);
}

function allPages(langs: string[], forced: boolean, onPage?: OnPage) {
  return async (doc: PdfDoc): Promise<PdfText> => {
    const pages: string[] = [];
    const ocr: (OcrLine[] | null)[] = [];
    const turns: (Rotation | null)[] = [];
    const notes: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const got = await pageContent(doc, p, langs, undefined, forced);
      pages.push(got.text);
      ocr.push(got.lines);
      turns.push(got.turn);
      if (got.note) notes.push(got.note);
      onPage?.({ page: p, pages: doc.numPages });
    }
    return { langs: langs.join('+'), forced, pages, ocr, turns, notes, ...(await metadata(doc)) };
  };
}

/**
 * The cache key of a document's text: one read by OCR ([O9]) is another entry than the one read
 * as [O3] decides, so neither is ever taken for the other.
 */
function pdfKey(bytes: Uint8Array, forced: boolean): string {
  return bytesKey(forced ? 'pdf-forced-ocr' : 'pdf', bytes);
}

/** One cache entry per document and reading, made with one set of OCR languages (its `langs`). */
function readPdf(bytes: Uint8Array, langs: string[], forced: boolean, onPage?: OnPage): Promise<PdfText> {
  const key = pdfKey(bytes, forced);
  if (peek<PdfText>(key)?.langs !== langs.join('+')) forget(key);
  return cached(key, () => withPdf(bytes, allPages(langs, forced, onPage)));
}

/**
 * With a password the text is never cached ([F12]): what the password opened stays with this one
 * extraction, and a later read without it cannot find it. A PDF the password opened gets the note
 * that a new version needs it again ([F14]).
 */
async function readLockedPdf(
  bytes: Uint8Array,
  langs: string[],
  forced: boolean,
  unlock: { password: string; fileLabel: string },
  onPage?: OnPage,
): Promise<PdfText> {
  const read = allPages(langs, forced, onPage);
  return withPdf(
    bytes,
    async (doc, unlocked) => {
      const pdf = await read(doc);
      return unlocked ? { ...pdf, notes: [UNLOCKED_NOTE, ...pdf.notes] } : pdf;
    },
    unlock,
  );
}

/**
 * Reading one locator back opens the document for that page only, unless it was just extracted.
 * An OCR'd page is read once, at the turn its locator recorded ([O8]); a `forced` one is OCR'd
 * again whatever its layer holds ([O9]).
 */
async function readPage(
  bytes: Uint8Array,
  page: number,
  langs: string[] | null,
  turn?: Rotation,
  forced = false,
): Promise<string> {
  const hit = peek<PdfText>(pdfKey(bytes, forced));
  // A locator without `ocr` names a page that was not OCR'd: any entry whose page was not either.
  const sameTurn = turn === undefined || (hit?.turns[page - 1] ?? turn) === turn;
  const fits =
    hit && (langs ? hit.langs === langs.join('+') && sameTurn : (hit.ocr[page - 1] ?? null) === null);
  if (hit && fits) return hit.pages[page - 1] ?? missingPage(page, hit.pages.length);
  const got = await withPdf(bytes, (doc) =>
    page >= 1 && page <= doc.numPages
      ? pageContent(doc, page, langs, turn, forced)
      : missingPage(page, doc.numPages),
  );
  return got.text;
}

function missingPage(page: number, pages: number): never {
  throw new AppError('stale', `page ${page} is not in the PDF (${pages} pages)`);
}

/** Chunks of an OCR'd page name the languages and carry the box of their lines ([O5]). */
function pageChunks(
  text: string,
  page: number,
  fileLabel: string,
  read: { lines: OcrLine[] | null; turn: Rotation | null; forced: boolean },
  langs: string,
): Chunk[] {
  const pieces = flatPieces(text, `p${page}`, `${fileLabel}, page ${page}`);
  const { lines: ocr, turn } = read;
  const forced = read.forced ? { forced: true as const } : {};
  return charChunks(text, pieces, (charStart, charEnd, lines): Locator => {
    if (!ocr) return { type: 'pdf', page, charStart, charEnd, ...lines };
    const bbox = boxOf(ocr, charStart, charEnd);
    const at = turn === null ? {} : { turn };
    return {
      type: 'pdf',
      page,
      charStart,
      charEnd,
      ...lines,
      ...(bbox ? { bbox } : {}),
      ocr: langs,
      ...at,
      ...forced,
    };
  });
}

function healthOf(pdf: PdfText, chunks: Chunk[]): string[] {
  const read = pdf.ocr.filter((l) => l !== null).length;
  const how = pdf.forced ? ', text layers ignored (read by OCR)' : '';
  const notes =
    read > 0 || pdf.forced
      ? [`${read} of ${pdf.pages.length} pages read by OCR${how}`, ...pdf.notes]
      : pdf.notes;
  if (pdf.pages.length > 0 && chunks.length === 0) {
    const why =
      read > 0 ? 'no text layer, and OCR found no text' : 'no text layer and no scanned image to read';
    return [why, ...notes];
  }
  const blank = pdf.pages.filter((t) => t.trim() === '').length;
  return blank > 0 ? [`${blank} of ${pdf.pages.length} pages have no text`, ...notes] : notes;
}

export async function extractPdf(
  bytes: Uint8Array,
  fileLabel: string,
  langs: string[],
  onPage?: OnPage,
  password?: string,
  forced = false,
): Promise<Extraction> {
  const pdf =
    password === undefined
      ? await readPdf(bytes, langs, forced, onPage)
      : await readLockedPdf(bytes, langs, forced, { password, fileLabel }, onPage);
  const ocr = langs.join('+');
  const chunks = pdf.pages.flatMap((text, i) => {
    const lines = pdf.ocr[i] ?? null;
    // A page of a forced reading that kept its layer (no image to read) is a plain page.
    const read = { lines, turn: pdf.turns[i] ?? null, forced: pdf.forced && lines !== null };
    return pageChunks(text, i + 1, fileLabel, read, ocr);
  });
  return {
    title: pdf.title,
    occurredAt: pdf.occurredAt,
    datedBy: pdf.datedBy,
    health: healthOf(pdf, chunks),
    chunks,
  };
}

export async function readPdfLocator(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'pdf')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a PDF`);
  const langs = locator.ocr ? locator.ocr.split('+') : null;
  const text = await readPage(bytes, locator.page, langs, locator.turn, locator.forced === true);
  return sliceChars(text, locator.charStart, locator.charEnd, `page ${locator.page}`);
}

/** Every page's text, pages separated by a blank line; `forced`: as a file read by OCR has it ([O9]). */
export async function pdfWholeText(bytes: Uint8Array, langs: string[], forced = false): Promise<string> {
  const pdf = await readPdf(bytes, langs, forced);
  return pdf.pages.join('\n\n');
}
