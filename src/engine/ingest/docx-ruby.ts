/**
 * Ruby (phonetic guide) text in Word documents ([F19] in docs/FORMATS.md). Japanese and Chinese
 * documents write a word's reading above it as `<w:ruby>`: the base text in `w:rubyBase`, the
 * reading in `w:rt`, each in runs of their own. mammoth reads neither, so a document set in ruby
 * indexes as empty. Before mammoth reads the body, each ruby becomes one text element holding the
 * base followed by its reading in parentheses, 東京(とうきょう), inside the run that held it: the
 * word is found by either. Only a body that holds `<w:ruby` is rewritten; the archive has already
 * been counted and rebuilt ([Z1] in docs/SECURITY.md), and the rewrite only shortens the part.
 */
import JSZip from 'jszip';
import { zipParts } from './zip-parts.ts';

const BODY = 'word/document.xml';
/** The body is read whole to look for ruby; zip-verify.ts has bounded every part's real size. */
const MAX_BODY_BYTES = 256 * 1024 * 1024;
const RUBY = /<w:ruby>([\s\S]*?)<\/w:ruby>/g;
const TEXT = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g;

/** The text of the runs in one part of a ruby (already XML-escaped, as it stays). */
function textsOf(xml: string): string {
  return [...xml.matchAll(TEXT)].map((m) => m[1] ?? '').join('');
}

/** Each `<w:ruby>` of a body as one `<w:t>`: its base, then its reading in parentheses. */
function flattenRuby(body: string): string {
  return body.replace(RUBY, (_, inner: string) => {
    const base = textsOf(/<w:rubyBase>([\s\S]*?)<\/w:rubyBase>/.exec(inner)?.[1] ?? '');
    const reading = textsOf(/<w:rt>([\s\S]*?)<\/w:rt>/.exec(inner)?.[1] ?? '');
    const text = reading && reading !== base ? `${base}(${reading})` : base;
    return `<w:t xml:space="preserve">${text}</w:t>`;
  });
}

/** The archive with its body's ruby flattened, or the same bytes when it has none. */
export async function withRubyFlattened(zip: Uint8Array): Promise<Uint8Array> {
  const read = zipParts(zip, MAX_BODY_BYTES).read(BODY);
  if (!read.ok || !read.text.includes('<w:ruby')) return zip;
  const archive = await JSZip.loadAsync(zip);
  const name = Object.keys(archive.files).find((n) => n.toLowerCase() === BODY) ?? BODY;
  archive.file(name, flattenRuby(read.text));
  return archive.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
