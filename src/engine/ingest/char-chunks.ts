/** Chunks whose locators are character ranges (plus lines) of an extracted text (pdf pages, docx). */
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { type LineSpan, makeLineSpanner } from './offset-map.ts';
import type { Piece } from './sections.ts';
import type { Chunk } from './types.ts';

export type CharLocatorMaker = (charStart: number, charEnd: number, lines: LineSpan) => Locator;

export function charChunks(text: string, pieces: Piece[], make: CharLocatorMaker): Chunk[] {
  const span = makeLineSpanner(text);
  return pieces.map((p) => ({
    key: p.key,
    label: p.label,
    body: text.slice(p.start, p.end),
    locator: make(p.start, p.end, span(p.start, p.end)),
  }));
}

/** Slices an extracted text by a locator's character range, refusing ranges that no longer fit. */
export function sliceChars(text: string, charStart: number, charEnd: number, what: string): string {
  if (!(charStart >= 0 && charStart < charEnd && charEnd <= text.length)) {
    throw new AppError(
      'stale',
      `locator characters ${charStart}–${charEnd} are outside ${what} (${text.length} characters)`,
    );
  }
  return text.slice(charStart, charEnd);
}
