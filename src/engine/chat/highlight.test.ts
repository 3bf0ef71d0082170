/**
 * The question's words marked in a passage shown without the chat model: each whole word with its
 * inflections, never a longer word that only starts the same.
 */
import { describe, expect, it } from 'vitest';
import { highlightTerms } from './chat.ts';

const marked = (text: string, question: string) =>
  highlightTerms(text, question).map((r) => text.slice(r.start, r.end));

describe('highlighted question words', () => {
  it('marks the words and their inflections, not words that merely start the same', () => {
    const text =
      'We recognize the hotel. The recorder records hot loops; it looped and is looping, one loop.';
    expect(marked(text, 'record hot loops')).toEqual([
      'recorder',
      'records',
      'hot',
      'loops',
      'looped',
      'looping',
      'loop',
    ]);
  });

  it('takes the question word back to its stem first, and knows y and e endings', () => {
    const text = 'She picks a policy. Policies were decided; he decides; they pick.';
    expect(marked(text, 'picked policy decide')).toEqual([
      'picks',
      'policy',
      'Policies',
      'decided',
      'decides',
      'pick',
    ]);
  });

  it('marks a word of a Chinese or Japanese run as itself', () => {
    expect(marked('東京の会議は月曜日です。', '会議')).toEqual(['会議']);
  });
});
