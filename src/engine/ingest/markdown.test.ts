import { describe, expect, it } from 'vitest';
import { findHeadings, markdownSections, parseFrontMatter } from './markdown.ts';

const headings = (md: string) => findHeadings(md, 0).map((h) => `${h.level}:${h.text}`);

describe('markdown headings', () => {
  it('finds ATX and setext headings', () => {
    const md = '# One #\ntext\n## Two\nTitle\n=====\nSub\n---\n####### seven\n#nospace\n';
    expect(headings(md)).toEqual(['1:One', '2:Two', '1:Title', '2:Sub']);
  });

  it('ignores headings inside fenced code, including an unclosed last fence', () => {
    const md = [
      '# Real',
      '```bash',
      '# comment, not a heading',
      '```',
      '~~~~',
      '## also code',
      '~~~',
      '## still code (the ~~~ fence needs 4)',
      '~~~~',
      '## After',
      '```',
      '# unclosed fence runs to the end',
    ].join('\n');
    expect(headings(md)).toEqual(['1:Real', '2:After']);
  });

  it('does not take a thematic break after a blank line or a list for a setext heading', () => {
    expect(headings('para\n\n---\n- item\n---\n')).toEqual([]);
  });

  it('[R5] shows a heading as its words: links, emphasis, code, comments and HTML dropped', () => {
    const md = [
      '## 合并单元格[⬆](#目录)<!-- Link generated with jump2header -->',
      '# Architecture Decision Record (ADR) template <!-- Replace with ADR title -->',
      '### 1. **Apache ECharts**',
      '##### **Cons**:',
      '## Call `worksheet.mergeCells()` [docs](https://example.com/x_(y)) ![logo](l.png)',
      '## <a name="setup"></a>Set-up _first_ and *then* \\#tag',
      '## snake_case_name and 2*3*4 stay',
      '## The `List<T>` type, Array<T> and [`mergeCells`](#merge)',
      '## Installation [¶](#installation)',
      '## [⬆](#top)',
      '## <!-- only a comment -->',
      'A *setext* [heading](#h)',
      '---',
    ].join('\n');
    expect(headings(md)).toEqual([
      '2:合并单元格',
      '1:Architecture Decision Record (ADR) template',
      '3:1. Apache ECharts',
      '5:Cons:',
      '2:Call worksheet.mergeCells() docs logo',
      '2:Set-up first and then #tag',
      '2:snake_case_name and 2*3*4 stay',
      '2:The List<T> type, Array and mergeCells',
      '2:Installation',
      '2:(untitled)',
      '2:(untitled)',
      '2:A setext heading',
    ]);
  });

  it('[R5] keeps a heading of hostile markup linear: a long run of markers is cut, not backtracked', () => {
    const md = `## ${'**a '.repeat(2000)}\n## ${'['.repeat(3000)}x${'](y)'.repeat(1500)}`;
    const [first, second] = findHeadings(md, 0);
    expect(first?.text.length).toBeLessThanOrEqual(201);
    expect(second?.text.length).toBeLessThanOrEqual(201);
  });

  it('builds breadcrumbs and a preamble', () => {
    const md = 'intro\n# A\na\n## B\nb\n### C\nc\n## D\nd\n# E\n';
    const paths = markdownSections(md, 0).map((s) => (s.path ? s.path.join(' > ') : null));
    expect(paths).toEqual([null, 'A', 'A > B', 'A > B > C', 'A > D', 'E']);
  });
});

describe('front matter', () => {
  it('reads title and date and skips the block', () => {
    const md = '---\ntitle: Handbook\ndate: 2024-01-15\ntags: [a]\n---\n# Body\n';
    const fm = parseFrontMatter(md);
    expect(fm).toMatchObject({ title: 'Handbook', occurredAt: '2024-01-15T00:00:00.000Z', health: [] });
    expect(md.slice(fm.bodyStart)).toBe('# Body\n');
  });

  it('notes invalid YAML and ignores it', () => {
    const fm = parseFrontMatter('---\ntitle: [unclosed\n---\ntext\n');
    expect(fm.title).toBeNull();
    expect(fm.health).toEqual(['invalid YAML front matter: ignored']);
    expect(fm.bodyStart).toBeGreaterThan(0);
  });

  it('is not front matter without a closing line', () => {
    expect(parseFrontMatter('---\ntitle: x\nno end\n').bodyStart).toBe(0);
  });
});
