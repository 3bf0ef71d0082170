import { describe, expect, it } from 'vitest';
import { charsOfLines, gitLineCount, lineStarts, tokensOf, utf8Length } from './lines.ts';

describe('lines as Git counts them', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\nb', 2],
    ['a\r\nb\r\n', 2],
    ['a\rb\n', 1],
    ['\n\n', 2],
  ])('%j has %i lines', (text, lines) => {
    expect(gitLineCount(text)).toBe(lines);
  });

  it('finds the characters of a line range', () => {
    const text = 'one\ntwo\r\nthree';
    const starts = lineStarts(text);
    expect(charsOfLines(starts, 1, 1)).toBe(4);
    expect(charsOfLines(starts, 2, 2)).toBe(5);
    expect(charsOfLines(starts, 2, 3)).toBe(10);
    expect(charsOfLines(starts, 1, 3)).toBe(text.length);
    expect(charsOfLines(starts, 3, 2)).toBe(0);
  });

  it('sizes text at about four characters a token', () => {
    expect(tokensOf(0)).toBe(0);
    expect(tokensOf(1)).toBe(1);
    expect(tokensOf(8)).toBe(2);
    expect(tokensOf(9)).toBe(3);
  });

  it('measures UTF-8 bytes', () => {
    for (const text of ['', 'abc', 'é', '日本', '🎉', 'a\uD800b']) {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });
});
