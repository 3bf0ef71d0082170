import { describe, expect, it } from 'vitest';
import { describeCitation, formatBytes, formatRelative, plural } from './format.ts';

describe('format', () => {
  it('formats sizes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(101 * 1024 * 1024)).toBe('101 MB');
    expect(formatBytes(null)).toBe('—');
  });

  it('formats relative times', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(formatRelative('2026-01-10T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-01-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelative('2026-01-09T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('nope', now)).toBe('—');
  });

  it('describes citations', () => {
    const base = { itemId: 's', fileId: 'f', fileLabel: 'paper.pdf', blob: 'b' };
    expect(
      describeCitation({
        ...base,
        locator: { type: 'pdf', page: 3, charStart: 0, charEnd: 5, lineStart: 10, lineEnd: 14 },
      }),
    ).toBe('paper.pdf · p. 3, lines 10–14');
    expect(
      describeCitation({
        ...base,
        fileLabel: 'q.xlsx',
        locator: { type: 'xlsx', sheet: 'Q1', rowStart: 1, rowEnd: 9 },
      }),
    ).toBe('q.xlsx · Q1, rows 1–9');
    const csv = { type: 'csv', rowStart: 2, rowEnd: 40, byteStart: 9, byteEnd: 900 } as const;
    expect(describeCitation({ ...base, fileLabel: 'people.csv', locator: csv })).toBe(
      'people.csv · rows 2–40',
    );
    const slide = { type: 'pptx', slide: 4, charStart: 0, charEnd: 5, lineStart: 30, lineEnd: 31 } as const;
    expect(describeCitation({ ...base, fileLabel: 'deck.pptx', locator: slide })).toBe('deck.pptx · slide 4');
    const page = { type: 'html', charStart: 0, charEnd: 5, lineStart: 3, lineEnd: 7 } as const;
    expect(describeCitation({ ...base, fileLabel: 'wiki.html', locator: page })).toBe(
      'wiki.html · lines 3–7',
    );
    expect(describeCitation({ ...base, locator: null, lineStart: 4 })).toBe('paper.pdf · line 4');
    expect(describeCitation({ ...base, locator: null })).toBe('paper.pdf');
  });

  it('pluralizes', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(10000, 'file')).toBe('10,000 files');
  });
});
