/**
 * Splits a range of a string into pieces of at most SECTION_MAX_CHARS with SECTION_OVERLAP_CHARS of
 * overlap. Pieces are contiguous slices (never rejoined text) so a locator can read them back exactly.
 * Every scan is bounded by the window size, so splitting is linear even on a 10 MB single line.
 */
import { SECTION_MAX_CHARS, SECTION_OVERLAP_CHARS } from '#shared/constants.ts';

export type Range = { start: number; end: number };

// Breaks earlier than these fractions of the window make pieces needlessly small.
const MIN_PARAGRAPH_CUT = Math.floor(SECTION_MAX_CHARS * 0.3);
const MIN_OTHER_CUT = Math.floor(SECTION_MAX_CHARS * 0.5);

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || code === 0x3000;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Shrinks [start, end) so that it neither starts nor ends with whitespace; null when nothing is left. */
export function trimRange(text: string, start: number, end: number): Range | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return s < e ? { start: s, end: e } : null;
}

/** Moves an offset off the middle of a surrogate pair (a byte range cannot hold half a code point). */
function alignForward(text: string, pos: number): number {
  return pos < text.length && isLowSurrogate(text.charCodeAt(pos)) ? pos + 1 : pos;
}

function alignBackward(text: string, pos: number): number {
  return pos > 0 && pos < text.length && isLowSurrogate(text.charCodeAt(pos)) ? pos - 1 : pos;
}

/** Where a piece starting at `start` should end: paragraph break, then line break, then space, then hard. */
function findCut(text: string, start: number, limit: number): number {
  const hi = Math.min(limit, start + SECTION_MAX_CHARS);
  let line = -1;
  let space = -1;
  // True while only blanks separate the current position from a newline further right.
  let blankAfter = false;
  for (let i = hi; i > start + MIN_PARAGRAPH_CUT; i--) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (blankAfter && i < hi) return i;
      blankAfter = true;
      if (line < 0 && i >= start + MIN_OTHER_CUT) line = i;
    } else if (isSpace(c)) {
      if (space < 0 && i >= start + MIN_OTHER_CUT && c !== 13) space = i;
    } else {
      blankAfter = false;
    }
  }
  if (line >= 0) return line;
  if (space >= 0) return space;
  return alignBackward(text, hi);
}

const WORD_SNAP_CHARS = 40;

/**
 * The overlap should start at a word, not in the middle of one ("nner loops…"): move forward to
 * the next whitespace when it is near; scripts without spaces (CJK) keep the exact offset.
 */
function wordStart(text: string, pos: number, limit: number): number {
  if (pos <= 0 || isSpace(text.charCodeAt(pos - 1)) || isSpace(text.charCodeAt(pos))) return pos;
  const stop = Math.min(limit, pos + WORD_SNAP_CHARS);
  for (let i = pos; i < stop; i++) if (isSpace(text.charCodeAt(i))) return i;
  return pos;
}

/** Splits an already trimmed range; returns it unchanged when it is short enough. */
export function splitRange(text: string, range: Range): Range[] {
  const out: Range[] = [];
  let s = range.start;
  const e = range.end;
  while (e - s > SECTION_MAX_CHARS) {
    const cut = findCut(text, s, e);
    const piece = trimRange(text, s, cut) ?? { start: s, end: cut };
    out.push(piece);
    let next = piece.end - SECTION_OVERLAP_CHARS;
    if (next <= s) next = piece.end;
    next = wordStart(text, next, piece.end);
    while (next < e && isSpace(text.charCodeAt(next))) next++;
    s = alignForward(text, next);
  }
  if (s < e) out.push({ start: s, end: e });
  return out;
}
