import { describe, expect, it } from 'vitest';
import { buildTree } from './build.ts';
import { parseDocument } from './parse.ts';
import { cut, MAX_SUMMARY } from './summary.ts';
import type { BuiltTree, TreeNode } from './types.ts';

const parse = (text: string, path = 'doc.md') => parseDocument({ path, text, changed: null });
const docNode = (text: string) => parse(text).nodes[0]!;
const build = (files: Record<string, string>): BuiltTree =>
  buildTree(Object.entries(files).map(([path, text]) => ({ path, text, changed: null })));
const nodeOf = (tree: BuiltTree, id: string): TreeNode => {
  const node = tree.nodes.find((n) => n.id === id);
  if (!node) throw new Error(`no node ${id}`);
  return node;
};
const long = (words: number, word = 'word') => Array.from({ length: words }, () => word).join(' ');

describe('summary sources, one document per row of the table', () => {
  it('front-matter: the summary, else the description', () => {
    expect(docNode('---\nsummary: Prices are checked nightly.\n---\n# T\n\nBody text.\n')).toMatchObject({
      summary: 'Prices are checked nightly.',
      summarySource: 'front-matter',
    });
    expect(docNode('---\ndescription: What we sell.\n---\nBody.\n')).toMatchObject({
      summary: 'What we sell.',
      summarySource: 'front-matter',
    });
  });

  it('text: the whole text when it is short prose', () => {
    expect(docNode('# T\n\nShort text.\n\nA second *short* paragraph.\n')).toMatchObject({
      summary: 'Short text. A second short paragraph.',
      summarySource: 'text',
    });
  });

  it('paragraph: the first paragraph when the text is long', () => {
    const first = `First ${long(30)}.`;
    const node = docNode(`# T\n\n${first}\n\n${long(60, 'more')}\n`);
    expect(node).toMatchObject({ summary: first, summarySource: 'paragraph' });
  });

  it('paragraph: a paragraph among the first four blocks wins over a list, table or diagram before it', () => {
    const text = [
      '# T',
      '- a list',
      '',
      '| A |',
      '|---|',
      '| 1 |',
      '',
      '```mermaid',
      'graph TD',
      '```',
      '',
      'The paragraph that wins.',
      '',
    ].join('\n');
    expect(docNode(text)).toMatchObject({ summary: 'The paragraph that wins.', summarySource: 'paragraph' });
  });

  it('a paragraph after the first four blocks does not win', () => {
    const text =
      '- one\n\n```\ncode\n```\n\n    indented\n\n> [!NOTE]\n\n---\n\n| A |\n|---|\n| 1 |\n\nLate.\n';
    // The block quote holds only an alert marker, so it is no block: the paragraph is the fifth block.
    expect(docNode(text)).toMatchObject({ summary: 'one', summarySource: 'list' });
  });

  it('paragraph: the row keys of a table right after it are added', () => {
    const text = [
      'The checks we run on every invoice.',
      '',
      '| Id | Rule |',
      '|---|---|',
      '| R-01 | Prices differ |',
      '| R-02 | Tax missing |',
      '| Rounding rule | Half up |',
      '',
    ].join('\n');
    expect(docNode(text)).toMatchObject({
      summary:
        'The checks we run on every invoice. Rows: R-01 Prices differ; R-02 Tax missing; Rounding rule',
      summarySource: 'paragraph',
    });
  });

  it('section: a document that opens on its sections shows its named section in prose, in the order of the names', () => {
    const text = [
      '# ADR-007 Use Postgres',
      '## Status',
      'Accepted.',
      '## Context',
      'We need a database.',
      '## Decision',
      'We use Postgres.',
      '## Summary',
      '- not prose',
      '',
    ].join('\n');
    expect(docNode(text)).toMatchObject({ summary: 'We use Postgres.', summarySource: 'section' });
    expect(docNode('## 1. Overview:\nAn overview.\n## Scope\nThe scope.\n')).toMatchObject({
      summary: 'An overview.',
      summarySource: 'section',
    });
  });

  it('fields: a card opening on **key:** value fields', () => {
    const parsed = parse('# Rules\n\n## RULE-1 Prices\n- **Status:** open\n- **Owner**: ops\n');
    expect(parsed.nodes[1]).toMatchObject({
      kind: 'card',
      summary: 'Status: open · Owner: ops',
      summarySource: 'fields',
    });
  });

  it('list: the items of a first list', () => {
    expect(docNode('# T\n\n- one\n- two\n  - nested\n- three\n')).toMatchObject({
      summary: 'one · two · three',
      summarySource: 'list',
    });
  });

  it('table: columns, row count and row keys (a short code with its second cell)', () => {
    const text =
      '| Id | Name |\n|---|---|\n| R-01 | Prices differ |\n| Long key here | x |\n| GET | Reads |\n';
    expect(docNode(text)).toMatchObject({
      summary: 'Columns: Id, Name · 3 rows: R-01 Prices differ; Long key here; GET Reads',
      summarySource: 'table',
    });
  });

  it("diagram: a Mermaid block's kind", () => {
    const text = '# T\n\n```mermaid\n%% a comment\nsequenceDiagram\n  A->>B: hi\n```\n';
    expect(docNode(text)).toMatchObject({
      summary: 'Diagram: sequenceDiagram (Mermaid)',
      summarySource: 'diagram',
    });
  });

  it('code: a first code block', () => {
    expect(docNode('# T\n\n```ts\n\nconst x = 1;\n```\n')).toMatchObject({
      summary: 'Code (ts): const x = 1;',
      summarySource: 'code',
    });
  });

  it('section (again): the first section in prose when nothing above applies', () => {
    expect(docNode('# T\n## Background\n- a list\n## Details\nSome prose.\n')).toMatchObject({
      summary: 'Some prose.',
      summarySource: 'section',
    });
  });

  it('facts: the front matter facts, only when no section is in prose', () => {
    const text =
      '---\ntitle: T\nstatus: understood\nrules: 12\ntags: [a, b]\nnested: {x: 1}\n---\n## A\n- x\n';
    expect(docNode(text)).toMatchObject({
      summary: 'status: understood · rules: 12 · tags: a, b',
      summarySource: 'facts',
    });
    expect(docNode('---\nstatus: understood\n---\n## A\nProse here.\n')).toMatchObject({
      summarySource: 'section',
    });
  });

  it('children: the titles of what a node holds', () => {
    expect(docNode('# T\n## One\n## Two\n')).toMatchObject({
      summary: 'One · Two',
      summarySource: 'children',
    });
  });

  it('none: nothing to show', () => {
    expect(docNode('')).toMatchObject({ summary: '', summarySource: 'none' });
    expect(docNode('# Only a title\n')).toMatchObject({ summary: '', summarySource: 'none' });
  });

  it("readme: a folder's README.md or index.md", () => {
    const tree = build({
      'a/README.md': '# A\n\nWhat folder a holds.\n',
      'a/x.md': '# X\n\nx.\n',
      'b/index.md': '# B\n\nWhat folder b holds.\n',
      'b/y.md': '# Y\n\ny.\n',
    });
    expect(nodeOf(tree, 'a/')).toMatchObject({ summary: 'What folder a holds.', summarySource: 'readme' });
    expect(nodeOf(tree, 'b/')).toMatchObject({ summary: 'What folder b holds.', summarySource: 'readme' });
  });

  it('children: a folder without a README holding one document shows its title and summary', () => {
    const tree = build({ 'rtn01/articles.md': '# Unopened articles\n\nArticles nobody opened.\n' });
    expect(nodeOf(tree, 'rtn01/')).toMatchObject({
      summary: 'Unopened articles: Articles nobody opened.',
      summarySource: 'children',
    });
  });

  it('layout: what a folder holds, a one-document folder named with its title', () => {
    const tree = build({
      'rtn01/a.md': '# Unopened articles\n\nx.\n',
      'rtn02/b.md': '# Stale drafts\n\ny.\n',
      'rtn03/c.md': '# C\n',
      'rtn03/d.md': '# D\n',
      'notes.md': '# Notes\n\nz.\n',
    });
    expect(nodeOf(tree, '/')).toMatchObject({
      summary: 'Holds: rtn01 (Unopened articles) · rtn02 (Stale drafts) · rtn03 · Notes',
      summarySource: 'layout',
    });
    expect(nodeOf(tree, 'rtn03/')).toMatchObject({ summary: 'Holds: C · D', summarySource: 'layout' });
  });
});

describe('status prefixes', () => {
  it.each([
    ['status: superseded\nsupersededBy: ADR-003', 'Superseded by ADR-003. We used MySQL.'],
    ['status: Superseded\nsuperseded_by: ADR-003', 'Superseded by ADR-003. We used MySQL.'],
    ['status: Superseded by ADR-009', 'Superseded by ADR-009. We used MySQL.'],
    ['status: deprecated', 'Deprecated. We used MySQL.'],
    ['status: deprecated\nsupersededBy: ADR-004', 'Deprecated, superseded by ADR-004. We used MySQL.'],
    ['status: replaced\nsupersededBy: ADR-005', 'Replaced by ADR-005. We used MySQL.'],
    ['status: rejected', 'Rejected. We used MySQL.'],
    ['status: retired', 'Retired. We used MySQL.'],
    ['status: withdrawn', 'Withdrawn. We used MySQL.'],
    ['status: obsolete', 'Obsolete. We used MySQL.'],
    ['status: accepted', 'We used MySQL.'],
  ])('%s', (frontMatter, summary) => {
    const node = docNode(`---\n${frontMatter}\n---\n# ADR-001 Use MySQL\n\nWe used MySQL.\n`);
    expect(node.summary).toBe(summary);
    expect(node.summarySource).toBe('text');
  });

  it('keeps the status lower case and the replacement on the node', () => {
    const node = docNode('---\nstatus: Superseded by ADR-009\n---\nText.\n');
    expect(node.status).toBe('superseded');
    expect(node.supersededBy).toBe('ADR-009');
    expect(docNode('---\nstatus: Draft\n---\nText.\n').status).toBe('draft');
    expect(docNode('Text.\n').status).toBeNull();
  });

  it('stays within 240 characters', () => {
    const node = docNode(`---\nstatus: superseded\nsupersededBy: ADR-003\n---\n${long(100)}\n`);
    expect(node.summary.startsWith('Superseded by ADR-003. word word')).toBe(true);
    expect(node.summary.length).toBeLessThanOrEqual(MAX_SUMMARY);
  });

  it('shows in the summary of the folder it is the README of', () => {
    const tree = build({
      'old/README.md': '---\nstatus: retired\n---\n# Old\n\nThe old process.\n',
      'old/x.md': 'x',
    });
    expect(nodeOf(tree, 'old/').summary).toBe('Retired. The old process.');
  });
});

describe('cut', () => {
  it('keeps short texts, collapsing white space', () => {
    expect(cut('  a \n b  ')).toBe('a b');
  });

  it('cuts on a word boundary with an ellipsis', () => {
    const text = long(100);
    const out = cut(text);
    expect(out.length).toBeLessThanOrEqual(MAX_SUMMARY);
    expect(out.endsWith('word…')).toBe(true);
  });

  it('cuts a text without spaces hard, never inside a surrogate pair', () => {
    const out = cut('🎉'.repeat(200));
    expect(out.length).toBeLessThanOrEqual(MAX_SUMMARY);
    expect(out.endsWith('🎉…')).toBe(true);
  });
});
