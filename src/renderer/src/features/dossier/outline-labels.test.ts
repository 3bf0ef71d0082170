import { describe, expect, it } from 'vitest';
import { outlineLabels } from './outline-labels.ts';

const entry = (id: string, label: string, page: number | null, ordinal = 1) => ({
  id,
  label,
  ordinal,
  lineStart: null,
  page,
});

describe('outlineLabels', () => {
  it('drops the repeated file name and numbers parts of a page', () => {
    const labels = outlineLabels(
      [
        entry('a', 'paper.pdf, page 1', 1),
        entry('b', 'paper.pdf, page 1', 1),
        entry('c', 'paper.pdf, page 2', 2),
      ],
      'paper.pdf',
    );
    expect(labels.map((l) => l.text)).toEqual(['Page 1 · part 1', 'Page 1 · part 2', 'Page 2']);
  });

  it('keeps heading breadcrumbs without the file name', () => {
    const labels = outlineLabels([entry('a', 'notes.md > setup > install', null)], 'notes.md');
    expect(labels[0]?.text).toBe('setup > install');
  });

  it('falls back to the ordinal', () => {
    expect(outlineLabels([entry('a', 'x.md', null, 4)], 'x.md')[0]?.text).toBe('Section 4');
  });
});
