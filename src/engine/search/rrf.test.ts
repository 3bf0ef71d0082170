import { describe, expect, it } from 'vitest';
import { ftsQuery, queryTerms } from './keyword.ts';
import { freshness, fuseRanks } from './rrf.ts';

describe('reciprocal rank fusion', () => {
  it('scores 1/(60+rank) per list and adds the votes', () => {
    const scores = fuseRanks([
      ['a', 'b', 'c'],
      ['b', 'a'],
    ]);
    expect(scores.get('a')).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(scores.get('b')).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(scores.get('c')).toBeCloseTo(1 / 63, 12);
  });

  it('a hit in two lists beats a first place in one', () => {
    const scores = fuseRanks([
      ['solo', 'both'],
      ['x', 'both'],
    ]);
    expect(scores.get('both')!).toBeGreaterThan(scores.get('solo')!);
  });

  it('a list with a weight votes that share of 1/(60+rank) ([R10])', () => {
    const scores = fuseRanks(
      [
        ['file', 'x'],
        ['y', 'section'],
      ],
      60,
      [0.5],
    );
    expect(scores.get('file')).toBeCloseTo(0.5 / 61, 12);
    expect(scores.get('section')).toBeCloseTo(1 / 62, 12);
    expect(scores.get('section')!).toBeGreaterThan(scores.get('file')!);
  });

  it('rank 10 votes 1/70', () => {
    const list = Array.from({ length: 10 }, (_, i) => i);
    expect(fuseRanks([list]).get(9)).toBeCloseTo(1 / 70, 12);
  });
});

describe('freshness', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const daysAgo = (d: number) => new Date(now - d * 86_400_000).toISOString();
  it('halves every 90 days', () => {
    expect(freshness(daysAgo(0), now)).toBe(1);
    expect(freshness(daysAgo(90), now)).toBeCloseTo(0.5, 12);
    expect(freshness(daysAgo(180), now)).toBeCloseTo(0.25, 12);
  });
  it('never sinks below 0.25', () => {
    expect(freshness(daysAgo(365 * 2), now)).toBe(0.25);
  });
  it('unknown and future dates count as fresh', () => {
    expect(freshness(null, now)).toBe(1);
    expect(freshness('not a date', now)).toBe(1);
    expect(freshness(daysAgo(-5), now)).toBe(1);
  });
});

describe('keyword queries', () => {
  it('keeps words only, drops stop words and small talk, quotes terms', () => {
    expect(queryTerms('Who owns the "billing" migration? NEAR(x)')).toEqual([
      'owns',
      'billing',
      'migration',
      'near',
      'x',
    ]);
    expect(queryTerms('yo')).toEqual([]);
    expect(ftsQuery(['a"b', 'c'])).toBe('"a""b" OR "c"');
  });

  it('drops the German function words that are English words too only from a German question', () => {
    expect(queryTerms('Wie berechnet man die Länge einer Kurve?')).toEqual(['berechnet', 'länge', 'kurve']);
    expect(queryTerms('Was ist die Quotiententopologie mit Äquivalenzrelation?')).toEqual([
      'quotiententopologie',
      'äquivalenzrelation',
    ]);
    // In English they are words: "die" (a die, to die), "man", MIT.
    expect(queryTerms('If I die, what does my man at MIT get?')).toEqual(['die', 'man', 'mit', 'get']);
  });
});
