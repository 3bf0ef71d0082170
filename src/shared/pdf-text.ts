/**
 * The one rule that turns a PDF page's text items into the page's text ([F15] in docs/FORMATS.md):
 * each item's `str`, and a newline after an item that ends its line (`hasEOL`). The engine builds
 * a page's text with it (src/engine/ingest/pdf.ts), so a locator's charStart/charEnd count in it;
 * the dossier's page view finds those characters on the drawn page with the same rule.
 */

/** What the rule reads of a pdf.js text item (a marked-content item has no `str`). */
export type PdfTextPiece = { str?: string; hasEOL?: boolean } | object;

/** Where item `index`'s string sits in the page's text: characters [start, end). */
export type PdfItemSpan = { index: number; start: number; end: number };

function strOf(item: PdfTextPiece): string | null {
  return 'str' in item && typeof item.str === 'string' ? item.str : null;
}

/** The page's text and, for every text item, where its string sits in it. */
export function pdfPageText(items: readonly PdfTextPiece[]): { text: string; spans: PdfItemSpan[] } {
  let text = '';
  const spans: PdfItemSpan[] = [];
  items.forEach((item, index) => {
    const str = strOf(item);
    if (str === null) return;
    spans.push({ index, start: text.length, end: text.length + str.length });
    text += str + ('hasEOL' in item && item.hasEOL ? '\n' : '');
  });
  return { text, spans };
}
