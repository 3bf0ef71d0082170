import { describe, expect, it } from 'vitest';
import { assembleTree } from './assemble.ts';
import { buildTree } from './build.ts';
import { MAX_BROKEN, MAX_LINKS_PER_NODE } from './links.ts';
import { parseDocument } from './parse.ts';
import type { BuiltTree, TreeLink } from './types.ts';

const build = (files: Record<string, string>): BuiltTree =>
  buildTree(Object.entries(files).map(([path, text]) => ({ path, text, changed: null })));
const linksFrom = (tree: BuiltTree, from: string) =>
  tree.links.filter((l) => l.from === from).map((l) => [l.to, l.kind, l.line]);
const pairs = (links: TreeLink[]) => links.map((l) => `${l.from} -> ${l.to} (${l.kind})`);

const target = [
  '# Spec',
  '## Business rules',
  'text',
  '## RULE-INV01-0001 Prices must match',
  'text',
  '- # Nested heading',
  '',
].join('\n');

describe('Markdown links', () => {
  it('to a document, a section by its GitHub anchor, a card by its id or its heading anchor', () => {
    const tree = build({
      'docs/spec.md': target,
      'docs/from.md': [
        '[doc](spec.md)',
        '[section](spec.md#business-rules)',
        '[card](spec.md#RULE-INV01-0001)',
        '[card by slug](spec.md#rule-inv01-0001-prices-must-match)',
        '[card by id in lower case](spec.md#rule-inv01-0001)',
        '[nested heading](spec.md#nested-heading)',
        '[unknown anchor](spec.md#nowhere)',
        '[title anchor](spec.md#spec)',
        '',
      ].join('\n\n'),
    });
    expect(linksFrom(tree, 'docs/from.md')).toEqual([
      ['docs/spec.md', 'link', 1],
      ['docs/spec.md#business-rules', 'link', 3],
      ['docs/spec.md#RULE-INV01-0001', 'link', 5],
    ]);
  });

  it('keeps one link per target, at its first line', () => {
    const tree = build({ 'a.md': '[x](b.md)\n\n[again](b.md#nowhere)\n', 'b.md': 'b' });
    expect(linksFrom(tree, 'a.md')).toEqual([['b.md', 'link', 1]]);
    expect(tree.nodes.find((n) => n.id === 'a.md')!.outgoingTotal).toBe(1);
  });

  it('angle brackets with spaces, relative paths, ../, /root, percent-encoding, reference links', () => {
    const tree = build({
      'docs/sub/from.md': [
        '[a](<../my doc.md>)',
        '[b](./near.md)',
        '[c](../../top.md)',
        '[d](/docs/my%20doc.md)',
        '[e][ref]',
        '[f](<near.md#part>)',
        '[ref]: ../../top.md',
        '',
      ].join('\n\n'),
      'docs/my doc.md': 'x',
      'docs/sub/near.md': '## Part\n',
      'top.md': 'x',
    });
    expect(linksFrom(tree, 'docs/sub/from.md')).toEqual([
      ['docs/my doc.md', 'link', 1],
      ['docs/sub/near.md', 'link', 3],
      ['top.md', 'link', 5],
      ['docs/sub/near.md#part', 'link', 11],
    ]);
  });

  it('from a section to a section of the same document, never to itself', () => {
    const tree = build({ 'a.md': '# A\n## One\nSee [two](#two) and [one](#one).\n## Two\n' });
    expect(linksFrom(tree, 'a.md#one')).toEqual([['a.md#two', 'link', 3]]);
  });

  it('to folders the tree holds', () => {
    const tree = build({ 'a.md': '[f](docs) [g](docs/) [r](./) [n](nowhere/)\n', 'docs/x.md': 'x' });
    expect(linksFrom(tree, 'a.md')).toEqual([
      ['docs/', 'link', 1],
      ['/', 'link', 1],
    ]);
  });

  it('leaves out URLs, non-Markdown files and paths above the root', () => {
    const tree = build({
      'a.md':
        '[u](https://example.com/b.md) [m](mailto:x@y.z) [i](image.png) [t](notes.txt) [up](../b.md) <https://x.y/z.md>\n',
      'image.png': 'binary',
    });
    expect(tree.links).toEqual([]);
    expect(tree.broken).toEqual([]);
  });
});

describe('broken links', () => {
  it('a link to a Markdown file the repository does not have, once per document and target', () => {
    const tree = build({
      'docs/a.md':
        '[x](missing.md) [y](missing.md) [z](Other.MD#part) [ok](b.md) [none](gone.txt)\n\n## S\n[w](missing.md)\n',
      'docs/b.md': 'b',
    });
    expect(tree.broken).toEqual([
      { from: 'docs/a.md', target: 'missing.md' },
      { from: 'docs/a.md', target: 'Other.MD#part' },
    ]);
  });

  it('not a link to a file the repository has but the tree leaves out, nor to a path never indexed', () => {
    const tree = build({
      'a.md': '[big](big.md) [r](restricted/x.md) [h](.hidden/x.md) [s](scratch/x.md)\n',
      'big.md': 'x'.repeat(2 * 1024 * 1024 + 1),
    });
    expect(tree.broken).toEqual([]);
    expect(tree.links).toEqual([]);
    expect(tree.skipped).toEqual([{ path: 'big.md', reason: 'over 2 MiB' }]);
  });

  it('HTML anchors resolve and break like Markdown links', () => {
    const tree = build({
      'docs/a.md': [
        '<a href="spec.md#business-rules">rules</a> <a href=\'/docs/spec.md#RULE-INV01-0001\'>card</a>',
        '',
        '<div>',
        '<a href="missing.md">gone</a> <a href="../docs/">folder</a> <a href="https://example.com/x.md">out</a>',
        '<!-- <a href="commented-out.md"> -->',
        '</div>',
        '',
        '`<a href="in-code.md">`',
        '',
      ].join('\n'),
      'docs/spec.md': target,
    });
    expect(linksFrom(tree, 'docs/a.md')).toEqual([
      ['docs/spec.md#business-rules', 'link', 1],
      ['docs/spec.md#RULE-INV01-0001', 'link', 1],
      ['docs/', 'link', 4],
    ]);
    expect(tree.broken).toEqual([{ from: 'docs/a.md', target: 'missing.md' }]);
  });

  it(`keeps at most ${MAX_BROKEN}`, () => {
    const text = Array.from({ length: MAX_BROKEN + 10 }, (_, i) => `[x](missing-${i}.md)`).join('\n');
    const tree = build({ 'a.md': text });
    expect(tree.broken.length).toBe(MAX_BROKEN);
    expect(tree.broken[0]).toEqual({ from: 'a.md', target: 'missing-0.md' });
  });
});

describe('mentions', () => {
  it('link to an id one to three other nodes define', () => {
    const tree = build({
      'a.md': 'Mentions ADR-001 and R-07.\n',
      'adr/001.md': '---\nid: ADR-001\n---\n# Use X\n',
      'r1.md': '# Rules\n## R-07 One\n',
      'r2.md': '# Rules\n## R-07 Two\n',
      'r3.md': '# Rules\n## R-07 Three\n',
    });
    expect(linksFrom(tree, 'a.md')).toEqual([
      ['adr/001.md', 'mention', 1],
      ['r1.md#R-07', 'mention', 1],
      ['r2.md#R-07', 'mention', 1],
      ['r3.md#R-07', 'mention', 1],
    ]);
  });

  it('ignore an id four or more nodes define', () => {
    const files: Record<string, string> = { 'a.md': 'Mentions R-07.\n' };
    for (let i = 1; i <= 4; i++) files[`r${i}.md`] = `# Rules\n## R-07 Copy ${i}\n`;
    expect(linksFrom(build(files), 'a.md')).toEqual([]);
  });

  it('a node does not mention itself; its other definers count', () => {
    const tree = build({
      'r.md': '# Rules\n## R-07 Prices\nR-07 holds, unlike R-08.\n## R-08 Taxes\nR-08 and R-07.\n',
    });
    expect(pairs(tree.links)).toEqual([
      'r.md#R-07 -> r.md#R-08 (mention)',
      'r.md#R-08 -> r.md#R-07 (mention)',
    ]);
  });

  it('a mention of a node it also links to is only the link; ids in code fences are not mentions', () => {
    const tree = build({
      'a.md': 'See [ADR-001](adr.md), ADR-001.\n\n```\nADR-002\n```\n',
      'adr.md': '---\nid: ADR-001\n---\nx',
      'adr2.md': '---\nid: ADR-002\n---\nx',
    });
    expect(linksFrom(tree, 'a.md')).toEqual([['adr.md', 'link', 1]]);
  });
});

describe(`at most ${MAX_LINKS_PER_NODE} links a node`, () => {
  it('keeps the first in document order and the total', () => {
    const files: Record<string, string> = {};
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) {
      files[`t/${String(59 - i).padStart(2, '0')}.md`] = 'x';
      lines.push(`[x](t/${String(59 - i).padStart(2, '0')}.md)`);
    }
    files['a.md'] = lines.join('\n\n');
    const tree = build(files);
    const from = tree.links.filter((l) => l.from === 'a.md');
    expect(from.length).toBe(MAX_LINKS_PER_NODE);
    expect(from.map((l) => l.line)).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 1));
    expect(from[0]!.to).toBe('t/59.md');
    expect(tree.nodes.find((n) => n.id === 'a.md')!.outgoingTotal).toBe(60);
  });
});

describe('assembly needs no text', () => {
  it('resolves the same links from parsed documents alone', () => {
    const docs = [
      { path: 'a.md', text: '[s](b.md#part) B-1\n', changed: null },
      { path: 'b.md', text: '## Part\n## B-1 Card\n', changed: null },
    ];
    const parsed = docs.map(parseDocument).map((p) => JSON.parse(JSON.stringify(p)));
    expect(assembleTree(parsed).links).toEqual(buildTree(docs).links);
    expect(pairs(assembleTree(parsed).links)).toEqual([
      'a.md -> b.md#part (link)',
      'a.md -> b.md#B-1 (mention)',
    ]);
  });
});
