import { describe, expect, it } from 'vitest';
import { MAX_HEADINGS, parseDocument } from './parse.ts';
import type { ParsedDocument } from './parsed.ts';

const parse = (text: string, path = 'docs/doc.md'): ParsedDocument =>
  parseDocument({ path, text, changed: null });
const ids = (p: ParsedDocument) => p.nodes.map((n) => n.id);
const ranges = (p: ParsedDocument) => p.nodes.map((n) => [n.anchor, n.lineStart, n.ownEnd, n.lineEnd]);

describe('titles', () => {
  it('front matter title first', () => {
    expect(parse('---\ntitle: From front matter\nname: n\n---\n# Heading\n').nodes[0]!.title).toBe(
      'From front matter',
    );
  });

  it('else a single top # heading (inline markup dropped)', () => {
    expect(parse('# The *real* `title`\n\ntext\n## Part\n').nodes[0]!.title).toBe('The real title');
    expect(parse('Intro first.\n\n## Part\n\n# Late top heading\n').nodes[0]!.title).toBe('Late top heading');
  });

  it('else the front matter name, else the file name', () => {
    expect(parse('---\nname: Named\n---\n# One\n# Two\n').nodes[0]!.title).toBe('Named');
    expect(parse('# One\n# Two\n', 'docs/two-tops.md').nodes[0]!.title).toBe('two-tops.md');
    expect(parse('no headings\n', 'docs/plain.md').nodes[0]!.title).toBe('plain.md');
  });

  it('a single first top heading is the document: it makes no section, its anchor names the document', () => {
    const p = parse('# Title\n\nIntro.\n\n## Part\n\nText.\n');
    expect(ids(p)).toEqual(['docs/doc.md', 'docs/doc.md#part']);
    expect(p.nodes[1]!.parent).toBe('docs/doc.md');
    expect(p.anchors).toContainEqual({ anchor: 'title', node: 'docs/doc.md' });
    expect(p.nodes[0]!.summary).toBe('Intro.');
  });

  it('two top headings are sections', () => {
    const p = parse('# One\na\n# Two\nb\n');
    expect(ids(p)).toEqual(['docs/doc.md', 'docs/doc.md#one', 'docs/doc.md#two']);
  });

  it('a title heading that starts with a reference id makes the document define the id', () => {
    const p = parse('---\nid: DOC-1\n---\n# ADR-003 Use Postgres\n\nWe use it.\n');
    expect(p.nodes[0]!.refIds).toEqual(['DOC-1', 'ADR-003']);
    expect(p.anchors).toContainEqual({ anchor: 'ADR-003', node: 'docs/doc.md' });
  });
});

describe('slugs: GitHub-style and unique in the document', () => {
  it('suffixes duplicates with -1, -2, counting every heading', () => {
    const p = parse('# A\n# A\n## A\n- # A\n# A\n');
    expect(p.nodes.slice(1).map((n) => n.anchor)).toEqual(['a', 'a-1', 'a-2', 'a-4']);
    // The heading inside the list has GitHub's anchor a-3, and names the node holding it.
    expect(p.anchors).toContainEqual({ anchor: 'a-3', node: 'docs/doc.md#a-2' });
  });

  it('drops punctuation, keeps non-ASCII letters, lower-cases', () => {
    const p = parse(
      "# x\n# What's new? (v2.0)\n# Ünïcödé Straße\n# 日本語 見出し\n# `foo()` bar\n# C++ & C#\n# Two  spaces\n",
    );
    expect(p.nodes.slice(1).map((n) => n.anchor)).toEqual([
      'x',
      'whats-new-v20',
      'ünïcödé-straße',
      '日本語-見出し',
      'foo-bar',
      'c--c',
      'two--spaces',
    ]);
  });
});

describe('cards and reference ids', () => {
  it('a heading that starts with a reference id is a card anchored by the id', () => {
    const p = parse('# Rules\n\n## RULE-INV01-0001 Prices must match\n\nText.\n\n## Not a card\n');
    expect(p.nodes[1]).toMatchObject({
      id: 'docs/doc.md#RULE-INV01-0001',
      kind: 'card',
      anchor: 'RULE-INV01-0001',
      title: 'RULE-INV01-0001 Prices must match',
      refIds: ['RULE-INV01-0001'],
    });
    expect(p.anchors).toContainEqual({
      anchor: 'rule-inv01-0001-prices-must-match',
      node: 'docs/doc.md#RULE-INV01-0001',
    });
    expect(p.nodes[2]).toMatchObject({ kind: 'section', refIds: [] });
  });

  it('a second card with the same id is anchored by its slug and still defines the id', () => {
    const p = parse('# X\n## R-01 First\n## R-01 Again\n');
    expect(p.nodes.slice(1).map((n) => [n.id, n.refIds])).toEqual([
      ['docs/doc.md#R-01', ['R-01']],
      ['docs/doc.md#r-01-again', ['R-01']],
    ]);
  });

  it('a front matter id defines a reference id of the document', () => {
    expect(parse('---\nid: ADR-010\n---\ntext\n').nodes[0]!.refIds).toEqual(['ADR-010']);
    expect(parse('---\nid: 42\n---\ntext\n').nodes[0]!.refIds).toEqual(['42']);
  });
});

describe('line ranges', () => {
  it('own text ends before the first child, everything ends before the next sibling or higher', () => {
    const text = ['# T', 'intro', '## A', 'a', '### A1', 'a1', '## B', 'b', ''].join('\n');
    expect(ranges(parse(text))).toEqual([
      [null, 1, 2, 8],
      ['a', 3, 4, 6],
      ['a1', 5, 6, 6],
      ['b', 7, 8, 8],
    ]);
  });

  it('counts CRLF as one line ending', () => {
    const text = '# T\r\nintro\r\n## A\r\na\r\n';
    expect(parse(text).lineCount).toBe(4);
    expect(ranges(parse(text))).toEqual([
      [null, 1, 2, 4],
      ['a', 3, 4, 4],
    ]);
  });

  it('counts a last line without a newline', () => {
    const p = parse('# T\n## A\nlast');
    expect(p.lineCount).toBe(3);
    expect(ranges(p)).toEqual([
      [null, 1, 1, 3],
      ['a', 2, 3, 3],
    ]);
  });

  it('a lone CR ends no line, as in Git', () => {
    const p = parse('one\rstill one\n## A\n');
    expect(p.lineCount).toBe(2);
    expect(p.nodes[1]!.lineStart).toBe(2);
  });

  it('front matter lines count', () => {
    const p = parse('---\ntitle: T\n---\n## A\ntext\n');
    expect(p.nodes[1]!.lineStart).toBe(4);
    expect(p.nodes[0]!.ownEnd).toBe(3);
  });

  it('a setext heading starts on its text line; a BOM changes nothing', () => {
    const p = parse('\uFEFFintro\n\nPart\n----\ntext\n');
    expect(p.nodes[1]).toMatchObject({ anchor: 'part', lineStart: 3, lineEnd: 5 });
  });

  it('an empty document has no lines', () => {
    expect(ranges(parse(''))).toEqual([[null, 0, 0, 0]]);
  });

  it('sizes each node by its lines', () => {
    const text = '# T\nintro\n## A\n12345678\n';
    const p = parse(text);
    expect(p.chars).toBe(text.length);
    expect(p.nodes[1]!.chars).toBe('## A\n12345678\n'.length);
  });
});

describe('headings that are text', () => {
  it('inside code fences, indented code and HTML comments', () => {
    const text = [
      '## Real',
      '```bash',
      '# comment, not a heading',
      '```',
      '~~~',
      '## tilde code',
      '~~~',
      '',
      '    # indented code',
      '',
      '<!--',
      '## commented out',
      '-->',
      '## After',
      '```',
      '# an unclosed fence runs to the end',
    ].join('\n');
    const p = parse(text);
    expect(p.nodes.slice(1).map((n) => n.title)).toEqual(['Real', 'After']);
    expect(p.nodes[1]!.ownEnd).toBe(13);
  });

  it(`at most ${MAX_HEADINGS} headings; later ones stay text of the node before them`, () => {
    const lines = Array.from({ length: MAX_HEADINGS + 5 }, (_, i) => `## H${i}\ntext ${i}`);
    const p = parse(`${lines.join('\n')}\n`);
    expect(p.nodes.length).toBe(MAX_HEADINGS + 1);
    const last = p.nodes[p.nodes.length - 1]!;
    expect(last.anchor).toBe(`h${MAX_HEADINGS - 1}`);
    expect(last.lineEnd).toBe(p.lineCount);
    expect(p.anchors).toContainEqual({ anchor: `h${MAX_HEADINGS + 2}`, node: last.id });
  });
});

describe('references', () => {
  it('keeps links with their line, resolved against the folder, and drops external ones', () => {
    const text = [
      '# T',
      'See [a](<my doc.md>), [b](../up.md#Part) and [c](https://example.com/x.md).',
      '[d][ref] and <https://example.com> and www.example.com',
      '',
      '[ref]: sub/d.md',
      '## Part',
      '[self](#t)',
    ].join('\n');
    const links = parse(text).refs.filter((r) => r.kind === 'link');
    expect(links).toEqual([
      {
        kind: 'link',
        from: 'docs/doc.md',
        line: 2,
        target: 'my doc.md',
        path: 'docs/my doc.md',
        fragment: null,
      },
      {
        kind: 'link',
        from: 'docs/doc.md',
        line: 2,
        target: '../up.md#Part',
        path: 'up.md',
        fragment: 'Part',
      },
      {
        kind: 'link',
        from: 'docs/doc.md',
        line: 3,
        target: 'sub/d.md',
        path: 'docs/sub/d.md',
        fragment: null,
      },
      { kind: 'link', from: 'docs/doc.md#part', line: 7, target: '#t', path: 'docs/doc.md', fragment: 't' },
    ]);
  });

  it('takes the href of HTML anchors as links, outside code and HTML comments', () => {
    const text = [
      '# T',
      'See <a href="other.md#part">other</a>, <a href=\'x.md\'>x</a> and <A class=c HREF=bare.md>b</A>.',
      '<p align="center">',
      '  <a title="a > b <a href=no.md>" href="sub/in-block.md?x=1&amp;y=2#T%C3%B6p">in a block</a>',
      '  <!-- <a href="commented.md">no</a> -->',
      '  <a',
      '    href="split.md">tag over two lines</a> <a/href="slash.md">as a browser reads it</a>',
      '</p>',
      '',
      '`<a href="code.md">` <!-- <a href="inline-comment.md"> --> <a name="top">no href</a>',
      '```html',
      '<a href="fenced.md">no</a>',
      '```',
      '    <a href="indented.md">no</a>',
      '',
      '- in a list <a href="../up.md">up</a> and <a href="https://example.com/x.md">out</a>',
      '',
      '<script>',
      'const s = \'<a href="script.md">\';',
      '</script>',
      '',
      '<a href="a\\b&#46;md"> <a/href="text.md"> (in a paragraph, Markdown reads no tag there)',
    ].join('\n');
    const links = parse(text)
      .refs.filter((r) => r.kind === 'link')
      .map((r) => (r.kind === 'link' ? [r.line, r.target, r.path, r.fragment] : []));
    expect(links).toEqual([
      [2, 'other.md#part', 'docs/other.md', 'part'],
      [2, 'x.md', 'docs/x.md', null],
      [2, 'bare.md', 'docs/bare.md', null],
      [4, 'sub/in-block.md?x=1&y=2#T%C3%B6p', 'docs/sub/in-block.md', 'Töp'],
      [6, 'split.md', 'docs/split.md', null],
      [7, 'slash.md', 'docs/slash.md', null],
      [16, '../up.md', 'up.md', null],
      [22, 'a\\b.md', 'docs/a\\b.md', null],
    ]);
  });

  it('finds the line of a link after multi-line code spans, images and breaks', () => {
    const text = 'Para `code\nspan` ![img\nalt](i.png) <b\n>x</b>\nand ADR-1 [here](x.md)\n';
    expect(parse(text).refs).toEqual([
      { kind: 'mention', from: 'docs/doc.md', line: 5, id: 'ADR-1' },
      { kind: 'link', from: 'docs/doc.md', line: 5, target: 'x.md', path: 'docs/x.md', fragment: null },
    ]);
  });

  it('finds the words that could be mentions, once per node, outside code blocks and URLs', () => {
    const text = [
      'ADR-001 and ADR-001 again, `R-02` in code, [ADR-003](x.md).',
      '```',
      'ADR-004 in a fence',
      '```',
      '<https://example.com/ADR-005>',
      '## Part',
      'ADR-001 here too.',
    ].join('\n');
    const mentions = parse(text)
      .refs.filter((r) => r.kind === 'mention')
      .map((r) => [r.from, r.line, r.kind === 'mention' ? r.id : '']);
    expect(mentions).toEqual([
      ['docs/doc.md', 1, 'ADR-001'],
      ['docs/doc.md', 1, 'R-02'],
      ['docs/doc.md', 1, 'ADR-003'],
      ['docs/doc.md#part', 7, 'ADR-001'],
    ]);
  });
});

describe('what a parsed document is', () => {
  it('is plain JSON', () => {
    const p = parseDocument({
      path: 'a.md',
      text: '---\nid: X-1\nstatus: deprecated\n---\n# T\n## R-1 Card\n[l](b.md)\n',
      changed: { commit: 'abc', date: '2024-01-02T03:04:05Z', subject: 'Edit' },
    });
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('ignores front matter that is not YAML or not closed', () => {
    expect(parse('---\n: : bad [\n---\n# T\n').nodes[0]!.title).toBe('T');
    expect(parse('---\nnot closed\n# T\n').nodes[0]!.title).toBe('T');
  });

  it('takes `---` lines around plain text for Markdown, not front matter', () => {
    const p = parse('---\nJust text\n---\nBody.\n');
    expect(p.nodes.map((n) => [n.anchor, n.lineStart])).toEqual([
      [null, 1],
      ['just-text', 2],
    ]);
  });
});

describe('hostile inputs stay fast', () => {
  it('a 2 MiB single line', () => {
    const p = parse('word [x](y.md) ADR-1 '.repeat(100_000).slice(0, 2 * 1024 * 1024 - 1));
    expect(p.lineCount).toBe(1);
    expect(p.nodes.length).toBe(1);
    expect(p.refs.length).toBe(2);
  });

  it('10,000 nested lists and quotes', () => {
    expect(parse(`${'- '.repeat(10_000)}x\n`).nodes.length).toBe(1);
    expect(parse(`${'>'.repeat(10_000)} x\n`).nodes.length).toBe(1);
    const nested = Array.from(
      { length: 10_000 },
      (_, i) => `${'  '.repeat(Math.min(i, 100))}- item ${i}`,
    ).join('\n');
    expect(parse(nested).lineCount).toBe(10_000);
  });

  it('2 MiB of unclosed HTML anchors and comments', () => {
    expect(parse(`<div>\n${'<a title="x" href=y.md '.repeat(90_000)}`).refs.length).toBe(1);
    expect(parse(`<div>\n${'<a <!-- '.repeat(250_000)}`).refs.length).toBe(0);
    expect(parse(`x ${'<a href="x.md">'.repeat(100_000)}`).refs.length).toBe(1);
  });

  it('a 2 MiB heading', () => {
    const p = parse(`## ${'a '.repeat(1024 * 1024 - 4)}\n`);
    expect(p.nodes.length).toBe(2);
    expect(p.nodes[1]!.title.length).toBeLessThanOrEqual(240);
    expect(p.nodes[1]!.anchor!.length).toBeLessThanOrEqual(1_000);
  });
});
