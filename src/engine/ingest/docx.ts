/**
 * DOCX through mammoth's HTML (body, then footnotes and endnotes), then the page headers and
 * footers mammoth does not read (docx-parts.ts, [F16] in docs/FORMATS.md), flattened to a canonical
 * text (see html-blocks.ts). Ruby text is made plain first (docx-ruby.ts, [F19]), and embedded
 * HTML or text parts are read where they stand (docx-altchunk.ts, [F21]). Runs in the worker.
 */
import mammoth from 'mammoth';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { coreDate } from './core-props.ts';
import type { DocumentDate } from './document-date.ts';
import { withAltChunksInlined, withAltChunksMarked } from './docx-altchunk.ts';
import { marginsHtml, pageMargins } from './docx-parts.ts';
import { withRubyFlattened } from './docx-ruby.ts';
import { blockSections, type CanonicalText, htmlToCanonical } from './html-blocks.ts';
import { flatPieces, structuredPieces } from './sections.ts';
import type { Extraction } from './types.ts';
import { bytesKey, cached } from './worker-cache.ts';
import { verifiedZip } from './zip-verify.ts';

type DocxText = CanonicalText & {
  warnings: number;
  skippedParts: number;
  embedded: { read: number; skipped: number };
  dated: DocumentDate | null;
};

// Images are never read or inlined as data URIs: they carry no text and can be huge.
const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

async function convert(bytes: Uint8Array): Promise<DocxText> {
  const checked = await verifiedZip(bytes, 'Word document');
  try {
    const alt = await withAltChunksMarked(await withRubyFlattened(checked));
    const body = alt.zip;
    const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const result = await mammoth.convertToHtml(
      { buffer },
      { convertImage: noImages, externalFileAccess: false },
    );
    const warnings = result.messages.filter((m) => m.type === 'warning').length;
    const margins = pageMargins(checked);
    return {
      ...htmlToCanonical(withAltChunksInlined(result.value, alt.html) + marginsHtml(margins)),
      warnings,
      skippedParts: margins.skipped,
      embedded: { read: alt.html.length, skipped: alt.skipped },
      dated: coreDate(checked),
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('refused', `corrupt or unreadable Word document: ${reason.slice(0, 200)}`);
  }
}

function canonical(bytes: Uint8Array): Promise<DocxText> {
  return cached(bytesKey('docx', bytes), () => convert(bytes));
}

function healthOf(doc: DocxText, chunks: number): string[] {
  const health: string[] = [];
  if (doc.tables > 0) health.push(`tables flattened to text (${doc.tables})`);
  if (doc.warnings > 0) health.push(`${doc.warnings} conversion warnings (some content may be missing)`);
  if (doc.skippedParts > 0) health.push(`${doc.skippedParts} header or footer parts unreadable, skipped`);
  // [F21]: content embedded as a part of its own (altChunk).
  if (doc.embedded.read > 0) health.push(`embedded HTML or text read (${doc.embedded.read})`);
  if (doc.embedded.skipped > 0)
    health.push(
      `${doc.embedded.skipped} embedded parts not read (another document, external, or unreadable)`,
    );
  if (chunks === 0) health.push('no text in the document body');
  return health;
}

export async function extractDocx(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const doc = await canonical(bytes);
  const sections = blockSections(doc);
  const pieces =
    sections.length > 0
      ? structuredPieces(doc.text, sections, fileLabel)
      : flatPieces(doc.text, '', fileLabel);
  const chunks = charChunks(
    doc.text,
    pieces,
    (charStart, charEnd, lines): Locator => ({
      type: 'docx',
      charStart,
      charEnd,
      ...lines,
    }),
  );
  return {
    title: null,
    occurredAt: doc.dated?.at ?? null,
    datedBy: doc.dated?.from ?? null,
    health: healthOf(doc, chunks.length),
    chunks,
  };
}

export async function readDocx(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'docx')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a Word document`);
  const doc = await canonical(bytes);
  return sliceChars(doc.text, locator.charStart, locator.charEnd, 'the document text');
}

/** The whole canonical text (the text docx locators point into). */
export async function docxWholeText(bytes: Uint8Array): Promise<string> {
  return (await canonical(bytes)).text;
}
