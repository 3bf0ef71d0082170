import { describe, expect, it } from 'vitest';
import { SECTION_MAX_CHARS, SECTION_OVERLAP_CHARS } from '#shared/constants.ts';
import { splitRange, trimRange } from './split.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

function pieces(text: string) {
  return splitRange(text, trimRange(text, 0, text.length)!).map((r) => text.slice(r.start, r.end));
}

describe('splitRange', () => {
  it('leaves short text whole', () => {
    expect(pieces('  short text \n')).toEqual(['short text']);
  });

  it('splits past the limit with the 100-character overlap', () => {
    const out = pieces(words(1000));
    expect(out.length).toBeGreaterThan(5);
    for (const [i, p] of out.entries()) {
      expect(p.length).toBeLessThanOrEqual(SECTION_MAX_CHARS);
      if (i === 0) continue;
      // The next piece starts with the previous piece's last ~100 characters, moved to a word start.
      const prev = out[i - 1]!;
      const overlap = [...Array(SECTION_OVERLAP_CHARS + 1).keys()]
        .reverse()
        .find((m) => m > 0 && p.startsWith(prev.slice(-m)));
      expect(overlap).toBeGreaterThanOrEqual(SECTION_OVERLAP_CHARS - 41);
      expect(/\s/.test(prev.at(-(overlap ?? 0) - 1) ?? ' ')).toBe(true);
    }
  });

  it('prefers paragraph breaks, then line breaks, then spaces', () => {
    const para = `${'a'.repeat(590)}\n\n${'b'.repeat(300)}\n${'c'.repeat(300)}`;
    expect(pieces(para)[0]).toBe('a'.repeat(590));
    const lines = `${'a'.repeat(590)}\n${'b'.repeat(300)} ${'c'.repeat(300)}`;
    expect(pieces(lines)[0]!.endsWith('b'.repeat(300))).toBe(false);
    expect(pieces(lines)[0]).toBe('a'.repeat(590));
    const spaces = `${'a'.repeat(700)} ${'b'.repeat(700)}`;
    expect(pieces(spaces)[0]).toBe('a'.repeat(700));
  });

  it('hard-cuts text without breaks, never inside a surrogate pair', () => {
    const emoji = '😀'.repeat(1500);
    for (const p of pieces(emoji)) {
      expect(p.length).toBeLessThanOrEqual(SECTION_MAX_CHARS);
      expect(p.charCodeAt(0)).toBe(0xd83d);
      expect(p.charCodeAt(p.length - 1)).toBe(0xde00);
    }
  });
});
