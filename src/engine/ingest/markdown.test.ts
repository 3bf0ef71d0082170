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
