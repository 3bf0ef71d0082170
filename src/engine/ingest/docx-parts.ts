/**
 * The text of a Word document's page headers and footers, which mammoth does not read ([F16] in
 * docs/FORMATS.md). Read from the archive zip-verify.ts has already counted and rebuilt, with
 * @xmldom/xmldom (no external entities, no DTD expansion). Paragraphs repeat across a section's
 * first, even and default headers, so each distinct paragraph is kept once, in part order.
 */
import type { Element } from '@xmldom/xmldom';
import { elementsOf, parseXml } from './pptx-xml.ts';
import { zipParts } from './zip-parts.ts';

/** A header or footer is a few kilobytes; a larger part is skipped, never inflated. */
const MAX_PART_BYTES = 2 * 1024 * 1024;
/** Word writes at most three headers and three footers per section; this bounds a hostile file. */
const MAX_PARTS = 64;
const PART = /^word\/(header|footer)(\d*)\.xml$/;

export type PageMargins = { headers: string[]; footers: string[]; skipped: number };

/**
 * A paragraph's visible text: runs (`t`), tabs and breaks as spaces; field instructions
 * (`instrText`, e.g. PAGE) and the fallback copy of alternate content (`mc:Fallback` repeats the
 * text box of `mc:Choice`) are not text. Iterative: a hostile part may nest deeply.
 */
function paragraphText(p: Element): string {
  const parts: string[] = [];
  const stack = elementsOf(p).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    const name = el.localName ?? '';
    if (name === 't') parts.push(el.textContent ?? '');
    else if (name === 'tab' || name === 'br' || name === 'cr') parts.push(' ');
    else if (name === 'p') {
      parts.push(' ');
      stack.push(...elementsOf(el).reverse());
    } else if (name !== 'instrText' && name !== 'Fallback' && name !== 'delText' && !PROPERTIES.has(name))
      stack.push(...elementsOf(el).reverse());
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Properties carry no text (a `tabs` list holds `tab` stops, not tabs). */
const PROPERTIES = new Set(['pPr', 'rPr', 'tcPr', 'tblPr', 'trPr', 'sectPr']);

/** A vertically merged cell's continuation: Word shows only the first cell of the merge. */
function mergedAway(tc: Element): boolean {
  const props = elementsOf(tc).find((c) => c.localName === 'tcPr');
  const vMerge = props && elementsOf(props).find((c) => c.localName === 'vMerge');
  if (!vMerge) return false;
  const val = vMerge.getAttribute('w:val') || vMerge.getAttribute('val');
  return val !== 'restart';
}

/** Top-level paragraphs (a text box's paragraphs read as part of the paragraph holding it). */
function paragraphs(root: Element): string[] {
  const out: string[] = [];
  const stack = elementsOf(root).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.localName === 'p') out.push(paragraphText(el));
    else if (el.localName === 'tc' && mergedAway(el)) continue;
    else stack.push(...elementsOf(el).reverse());
  }
  return out;
}

function partOrder(a: RegExpMatchArray, b: RegExpMatchArray): number {
  return Number(a[2] || 0) - Number(b[2] || 0);
}

export function pageMargins(zip: Uint8Array): PageMargins {
  const parts = zipParts(zip, MAX_PART_BYTES);
  const found = parts
    .names()
    .map((name) => name.match(PART))
    .filter((m): m is RegExpMatchArray => m !== null)
    .sort(partOrder)
    .slice(0, MAX_PARTS);
  const out: PageMargins = { headers: [], footers: [], skipped: 0 };
  const seen = new Set<string>();
  for (const m of found) {
    let texts: string[];
    try {
      const read = parts.read(m[0]);
      if (!read.ok) throw new Error(read.why);
      texts = paragraphs(parseXml(read.text));
    } catch {
      out.skipped++;
      continue;
    }
    for (const text of texts) {
      if (text === '' || seen.has(text)) continue;
      seen.add(text);
      (m[1] === 'header' ? out.headers : out.footers).push(text);
    }
  }
  return out;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The headers and footers as HTML appended after mammoth's body (and its footnotes and endnotes),
 * under headings of their own, so body locators keep their offsets and the margins cite as a
 * section "Page headers" / "Page footers".
 */
export function marginsHtml(margins: PageMargins): string {
  let html = '';
  if (margins.headers.length > 0)
    html += `<h1>Page headers</h1>${margins.headers.map((t) => `<p>${escapeHtml(t)}</p>`).join('')}`;
  if (margins.footers.length > 0)
    html += `<h1>Page footers</h1>${margins.footers.map((t) => `<p>${escapeHtml(t)}</p>`).join('')}`;
  return html;
}
