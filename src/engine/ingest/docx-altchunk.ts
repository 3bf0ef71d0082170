/**
 * Embedded content in Word documents ([F21] in docs/FORMATS.md). A `<w:altChunk r:id="…"/>` in the
 * body stands for a part of the package that Word imports where it stands: most often an HTML
 * page (pages pasted or generated into a document), sometimes plain text. mammoth skips it, so a
 * document made of one indexed as empty (the tika-testAltChunkHTML fixture). Before mammoth reads
 * the body, each altChunk whose part is HTML or text becomes a paragraph holding a marker; after,
 * the marker's paragraph is replaced by the part's main content as plain headings and paragraphs
 * (html.ts `mainContentHtml`: text escaped, page chrome and active content dropped). A part that
 * is missing, outside the package (`TargetMode="External"`: never fetched), too large, or of
 * another kind (an embedded Word or RTF document, MHTML) is skipped and counted. The archive has
 * been counted and rebuilt first ([Z1] in docs/SECURITY.md); reading a locator back takes the
 * same path, so the text is the same each time.
 */
import { posix } from 'node:path';
import JSZip from 'jszip';
import { mainContentHtml } from './html.ts';
import { decodeText } from './text-decode.ts';
import { type ZipParts, zipParts } from './zip-parts.ts';

const BODY = 'word/document.xml';
const RELS = 'word/_rels/document.xml.rels';
/** Body and embedded parts are read whole; zip-verify.ts has bounded every part's real size. */
const MAX_PART_BYTES = 256 * 1024 * 1024;
const ALT_CHUNK = /<w:altChunk\b([^>]*?)(?:\/>|>[\s\S]*?<\/w:altChunk>)/g;
const RELATIONSHIP = /<Relationship\b[^>]*>/g;
/** Private-use characters around the chunk's number: no document's own text looks like it. */
const marker = (n: number) => `\uE000altChunk${n}\uE000`;
const MARKED_PARAGRAPH = /<p>\uE000altChunk(\d+)\uE000<\/p>|\uE000altChunk(\d+)\uE000/g;

export type AltChunks = {
  /** The archive with each chunk read replaced by a marked paragraph (the same bytes when none). */
  zip: Uint8Array;
  /** The HTML of each chunk read, by its marker's number. */
  html: string[];
  /** altChunks whose part could not or may not be read. */
  skipped: number;
};

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** Relationship id to part name, for the parts inside the package only. */
function internalTargets(rels: string): Map<string, string> {
  const targets = new Map<string, string>();
  for (const [tag] of rels.matchAll(RELATIONSHIP)) {
    const id = attr(tag, 'Id');
    const target = attr(tag, 'Target');
    if (!id || !target || attr(tag, 'TargetMode') === 'External') continue;
    const name = target.startsWith('/')
      ? posix.normalize(target.slice(1))
      : posix.normalize(posix.join('word', target));
    if (!name.startsWith('../')) targets.set(id, name);
  }
  return targets;
}

const escapeText = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The chunk's content as plain HTML, or null when its kind is not read. */
function chunkHtml(parts: ZipParts, name: string): string | null {
  const ext = posix.extname(name).toLowerCase();
  const isHtml = ['.html', '.htm', '.xhtml'].includes(ext);
  if (!isHtml && ext !== '.txt') return null;
  const got = parts.bytes(name);
  if (!got.ok) return null;
  if (isHtml) return mainContentHtml(got.bytes);
  return decodeText(got.bytes)
    .text.split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeText(p).replace(/\n/g, '<br />')}</p>`)
    .join('');
}

/** The archive with its body's altChunks marked, and what each holds. */
export async function withAltChunksMarked(zip: Uint8Array): Promise<AltChunks> {
  const parts = zipParts(zip, MAX_PART_BYTES);
  const body = parts.read(BODY);
  if (!body.ok || !body.text.includes('<w:altChunk')) return { zip, html: [], skipped: 0 };
  const rels = parts.read(RELS);
  const targets = internalTargets(rels.ok ? rels.text : '');
  const html: string[] = [];
  let skipped = 0;
  const marked = body.text.replace(ALT_CHUNK, (_, attrs: string) => {
    const id = attr(attrs, 'r:id');
    const name = id ? targets.get(id) : undefined;
    const got = name ? chunkHtml(parts, name) : null;
    if (got === null) {
      skipped++;
      return '';
    }
    html.push(got);
    return `<w:p><w:r><w:t>${marker(html.length - 1)}</w:t></w:r></w:p>`;
  });
  if (html.length === 0 && skipped === 0) return { zip, html, skipped };
  const archive = await JSZip.loadAsync(zip);
  const bodyName = Object.keys(archive.files).find((n) => n.toLowerCase() === BODY) ?? BODY;
  archive.file(bodyName, marked);
  return { zip: await archive.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }), html, skipped };
}

/** mammoth's HTML with each marked paragraph replaced by its chunk's HTML. */
export function withAltChunksInlined(mammothHtml: string, chunks: readonly string[]): string {
  if (chunks.length === 0) return mammothHtml;
  return mammothHtml.replace(MARKED_PARAGRAPH, (_, a?: string, b?: string) => chunks[Number(a ?? b)] ?? '');
}
