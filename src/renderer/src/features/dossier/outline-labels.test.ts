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

  it('keeps heading breadcrumbs without the file name, the last heading shown, the path in the title', () => {
    const labels = outlineLabels([entry('a', 'notes.md > setup > install', null)], 'notes.md');
    expect(labels[0]?.text).toBe('install');
    expect(labels[0]?.title).toBe('setup > install');
  });

  it('tells sections apart when every breadcrumb starts with the document title', () => {
    // A Markdown handbook: every section's path begins "Benefits & Perks > …", which used to fill the
    // narrow outline so that every entry read "Benefits & Perks > H…".
    const labels = outlineLabels(
      [
        entry('a', 'Benefits & Perks', null, 1),
        entry('b', 'Benefits & Perks > Health Insurance', null, 2),
        entry('c', 'Benefits & Perks > Health Insurance > Medical Insurance', null, 3),
        entry('d', 'Benefits & Perks > Health Insurance > Dental Insurance', null, 4),
        entry('e', 'Benefits & Perks > Retirement', null, 5),
      ],
      'benefits-and-perks.md',
    );
    expect(labels.map((l) => [l.text, l.depth])).toEqual([
      ['Benefits & Perks', 0],
      ['Health Insurance', 1],
      ['Medical Insurance', 2],
      ['Dental Insurance', 2],
      ['Retirement', 1],
    ]);
    expect(new Set(labels.map((l) => l.text)).size).toBe(labels.length);
    expect(labels[2]?.title).toBe('Benefits & Perks > Health Insurance > Medical Insurance');
  });

  it('falls back to the ordinal', () => {
    expect(outlineLabels([entry('a', 'x.md', null, 4)], 'x.md')[0]?.text).toBe('Section 4');
  });
});
