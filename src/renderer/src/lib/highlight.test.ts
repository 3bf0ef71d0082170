import { describe, expect, it } from 'vitest';
import { findWordRanges, normalizeRanges, splitHighlights } from './highlight.ts';

const join = (segments: { text: string }[]) => segments.map((s) => s.text).join('');

describe('splitHighlights', () => {
  it('returns one unmarked segment without ranges', () => {
    expect(splitHighlights('hello', [])).toEqual([{ text: 'hello', start: 0, mark: false }]);
  });

  it('marks a range in the middle', () => {
    const s = splitHighlights('the quick fox', [{ start: 4, end: 9 }]);
    expect(s).toEqual([
      { text: 'the ', start: 0, mark: false },
      { text: 'quick', start: 4, mark: true },
      { text: ' fox', start: 9, mark: false },
    ]);
  });

  it('merges overlapping and touching ranges and sorts them', () => {
    const s = splitHighlights('abcdefghij', [
      { start: 6, end: 8 },
      { start: 1, end: 3 },
      { start: 2, end: 5 },
      { start: 5, end: 6 },
    ]);
    expect(s.filter((x) => x.mark).map((x) => x.text)).toEqual(['bcdefgh']);
    expect(join(s)).toBe('abcdefghij');
  });

  it('clamps ranges outside the text and drops empty ones', () => {
    const s = splitHighlights('abc', [
      { start: -5, end: 1 },
      { start: 2, end: 99 },
      { start: 1, end: 1 },
    ]);
    expect(s).toEqual([
      { text: 'a', start: 0, mark: true },
      { text: 'b', start: 1, mark: false },
      { text: 'c', start: 2, mark: true },
    ]);
  });

  it('keeps markup-looking text as plain text', () => {
    const text = '<img src=x onerror=alert(1)>';
    expect(join(splitHighlights(text, [{ start: 1, end: 4 }]))).toBe(text);
  });

  it('handles an empty text', () => {
    expect(splitHighlights('', [{ start: 0, end: 3 }])).toEqual([{ text: '', start: 0, mark: false }]);
  });
});

describe('normalizeRanges', () => {
  it('ignores NaN', () => {
    expect(normalizeRanges([{ start: Number.NaN, end: 2 }], 5)).toEqual([]);
  });
});

describe('findWordRanges', () => {
  it('finds whole words case-insensitively', () => {
    const text = 'Trace trees and tracing: a trace.';
    expect(findWordRanges(text, 'trace').map((r) => text.slice(r.start, r.end))).toEqual(['Trace', 'trace']);
  });

  it('escapes regex characters and ignores one-letter words', () => {
    expect(findWordRanges('a (b) c++', 'a c++ (b)')).toEqual([]);
  });
});
