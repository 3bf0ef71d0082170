/** PDF through unpdf (pdf.js): one text per page, flat chunks within each page. Runs in the worker. */
import { getDocumentProxy } from 'unpdf';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { firstDate } from './document-date.ts';
import { flatPieces } from './sections.ts';
import type { Chunk, Extraction } from './types.ts';
import { bytesKey, cached, peek } from './worker-cache.ts';

type PdfDoc = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfMeta = { title: string | null; occurredAt: string | null; datedBy: string | null };
type PdfText = PdfMeta & { pages: string[] };

function pdfError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') return new AppError('refused', 'password-protected PDF');
  const reason = err instanceof Error ? err.message : String(err);
  return new AppError('refused', `corrupt or unreadable PDF: ${reason.slice(0, 200)}`);
}

/** The same text unpdf's extractText gives a page: item strings, a newline after end-of-line items. */
async function pageText(doc: PdfDoc, page: number): Promise<string> {
  const proxy = await doc.getPage(page);
  const content = await proxy.getTextContent();
  let text = '';
  for (const item of content.items) {
    if ('str' in item && item.str != null) text += item.str + (item.hasEOL ? '\n' : '');
  }
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

async function withPdf<T>(bytes: Uint8Array, use: (doc: PdfDoc) => Promise<T>): Promise<T> {
  let doc: PdfDoc | null = null;
  try {
    // pdf.js detaches the buffer it is given, so it gets its own copy.
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
    return await use(doc);
  } catch (err) {
    throw pdfError(err);
  } finally {
    await doc?.destroy().catch(() => undefined);
  }
}

function readPdf(bytes: Uint8Array): Promise<PdfText> {
  return withPdf(bytes, async (doc) => {
    const pages: string[] = [];
    for (let p = 1; p <= doc.numPages; p++) pages.push(await pageText(doc, p));
    return { pages, ...(await metadata(doc)) };
  });
}

/** Reading one locator back opens the document for that page only, unless it was just extracted. */
function readPage(bytes: Uint8Array, page: number): Promise<string> {
  const hit = peek<PdfText>(bytesKey('pdf', bytes));
  if (hit) return Promise.resolve(hit.pages[page - 1] ?? missingPage(page, hit.pages.length));
  return withPdf(bytes, (doc) =>
    page >= 1 && page <= doc.numPages ? pageText(doc, page) : missingPage(page, doc.numPages),
  );
}

function missingPage(page: number, pages: number): never {
  throw new AppError('stale', `page ${page} is not in the PDF (${pages} pages)`);
}

function pageChunks(text: string, page: number, fileLabel: string): Chunk[] {
  const pieces = flatPieces(text, `p${page}`, `${fileLabel}, page ${page}`);
  return charChunks(
    text,
    pieces,
    (charStart, charEnd, lines): Locator => ({
      type: 'pdf',
      page,
      charStart,
      charEnd,
      ...lines,
    }),
  );
}

function healthOf(pdf: PdfText, chunks: Chunk[]): string[] {
  if (pdf.pages.length > 0 && chunks.length === 0) return ['no text layer (a scan? OCR is not supported)'];
  const blank = pdf.pages.filter((t) => t.trim() === '').length;
  return blank > 0 ? [`${blank} of ${pdf.pages.length} pages have no text`] : [];
}

export async function extractPdf(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const pdf = await cached(bytesKey('pdf', bytes), () => readPdf(bytes));
  const chunks = pdf.pages.flatMap((text, i) => pageChunks(text, i + 1, fileLabel));
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
  const text = await readPage(bytes, locator.page);
  return sliceChars(text, locator.charStart, locator.charEnd, `page ${locator.page}`);
}

/** Every page's text, pages separated by a blank line. */
export async function pdfWholeText(bytes: Uint8Array): Promise<string> {
  const pdf = await cached(bytesKey('pdf', bytes), () => readPdf(bytes));
  return pdf.pages.join('\n\n');
}
