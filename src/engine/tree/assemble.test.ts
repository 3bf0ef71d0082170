import { describe, expect, it } from 'vitest';
import { assembleTree, MAX_DOCUMENTS, SKIP_DOCUMENT_CAP, SKIP_DUPLICATE } from './assemble.ts';
import { buildTree } from './build.ts';
import { parseDocument } from './parse.ts';
import type { ParsedDocument } from './parsed.ts';
import type { Change, TreeDoc } from './types.ts';

const change = (commit: string, date: string): Change => ({ commit, date, subject: `Commit ${commit}` });
const doc = (
  path: string,
  text = `# ${path}\n\nText of ${path}.\n`,
  changed: Change | null = null,
): TreeDoc => ({
  path,
  text,
  changed,
});

/** A small deterministic shuffle (no Math.random: a failing order can be replayed). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const corpus: TreeDoc[] = [
  doc(
    'README.md',
    '# Repo\n\nWhat this repository holds. See [rules](rules/pricing.md#RULE-1).\n',
    change('c3', '2024-03-01T00:00:00Z'),
  ),
  doc('zeta.md'),
  doc('Alpha.md'),
  doc('beta.md', '# Beta\n\nMentions ADR-002.\n'),
  doc('index.md'),
  doc(
    'rules/pricing.md',
    '# Pricing\n## RULE-1 Prices\n- **Status:** open\n## Other\ntext [b](../beta.md)\n',
    change('c1', '2024-01-01T00:00:00Z'),
  ),
  doc('rules/index.md', '# Rules\n\nAll the rules.\n', change('c5', '2024-05-01T00:00:00Z')),
  doc('rules/deep/er/x.md', '---\nid: ADR-002\n---\n# X\n', change('c2', '2024-02-01T00:00:00Z')),
  doc('adr/b.md'),
  doc('adr/A.md'),
  doc('Zoo/z.md'),
  doc('restricted/secret.md'),
  doc('image.png', 'binary'),
  doc('missing-links.md', '[x](nowhere.md)\n'),
];

describe('folders and the root', () => {
  const tree = buildTree(corpus);
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));

  it('a folder exists when it holds an indexed document, at any depth', () => {
    const folders = tree.nodes.filter((n) => n.kind === 'folder').map((n) => n.id);
    expect(folders).toEqual(['adr/', 'rules/', 'rules/deep/', 'rules/deep/er/', 'Zoo/']);
    expect(byId.get('/')).toMatchObject({
      kind: 'root',
      parent: null,
      path: '',
      title: '/',
      lineStart: 0,
      lineEnd: 0,
    });
    expect(byId.get('rules/deep/er/')).toMatchObject({
      parent: 'rules/deep/',
      path: 'rules/deep/er/',
      title: 'er',
    });
  });

  it('titles the root with the repository name when given one, else /', () => {
    const parsed = corpus.filter((d) => d.path.endsWith('.md')).map(parseDocument);
    const root = (options?: { rootTitle?: string }) =>
      assembleTree(parsed, options).nodes.find((n) => n.kind === 'root');
    expect(root({ rootTitle: 'handbook' })).toMatchObject({ id: '/', path: '', title: 'handbook' });
    expect(root()?.title).toBe('/');
    expect(root({ rootTitle: '' })?.title).toBe('/');
    // Only the title: every other node, link and summary is the same.
    const named = assembleTree(parsed, { rootTitle: 'handbook' });
    const plain = assembleTree(parsed);
    expect(named.nodes.map((n) => (n.kind === 'root' ? { ...n, title: '/' } : n))).toEqual(plain.nodes);
    expect(named.links).toEqual(plain.links);
  });

  it('orders folders first, then README and index, then documents by name', () => {
    const children = (id: string) => tree.nodes.filter((n) => n.parent === id).map((n) => [n.ordinal, n.id]);
    expect(children('/')).toEqual([
      [0, 'adr/'],
      [1, 'rules/'],
      [2, 'Zoo/'],
      [3, 'README.md'],
      [4, 'index.md'],
      [5, 'Alpha.md'],
      [6, 'beta.md'],
      [7, 'missing-links.md'],
      [8, 'zeta.md'],
    ]);
    expect(children('adr/')).toEqual([
      [0, 'adr/A.md'],
      [1, 'adr/b.md'],
    ]);
    expect(children('rules/')).toEqual([
      [0, 'rules/deep/'],
      [1, 'rules/index.md'],
      [2, 'rules/pricing.md'],
    ]);
    expect(children('rules/pricing.md')).toEqual([
      [0, 'rules/pricing.md#RULE-1'],
      [1, 'rules/pricing.md#other'],
    ]);
  });

  it('lists nodes in tree order, every parent before its children', () => {
    const seen = new Set<string>();
    for (const node of tree.nodes) {
      if (node.parent !== null) expect(seen.has(node.parent)).toBe(true);
      seen.add(node.id);
    }
    expect(seen.size).toBe(tree.nodes.length);
  });

  it('dates folders and the root with the latest change they hold; sections carry none', () => {
    expect(byId.get('/')!.changed).toEqual(change('c5', '2024-05-01T00:00:00Z'));
    expect(byId.get('rules/')!.changed).toEqual(change('c5', '2024-05-01T00:00:00Z'));
    expect(byId.get('rules/deep/')!.changed).toEqual(change('c2', '2024-02-01T00:00:00Z'));
    expect(byId.get('adr/')!.changed).toBeNull();
    expect(byId.get('rules/pricing.md')!.changed).toEqual(change('c1', '2024-01-01T00:00:00Z'));
    expect(byId.get('rules/pricing.md#RULE-1')!.changed).toBeNull();
  });

  it('sizes every node at about four characters a token of everything under it', () => {
    const indexed = corpus.filter((d) => byId.has(d.path));
    const chars = indexed.reduce((n, d) => n + d.text.length, 0);
    expect(byId.get('/')!.tokens).toBe(Math.ceil(chars / 4));
    const pricing = corpus.find((d) => d.path === 'rules/pricing.md')!;
    expect(byId.get('rules/pricing.md')!.tokens).toBe(Math.ceil(pricing.text.length / 4));
  });

  it('skips what is never indexed, with the reason', () => {
    expect(tree.skipped).toEqual([
      { path: 'image.png', reason: 'not Markdown' },
      { path: 'restricted/secret.md', reason: 'under a restricted/ folder' },
    ]);
  });

  it('resolves links, mentions and broken links over the whole tree', () => {
    // In the tree order of their sources: rules/ comes before the root's documents.
    expect(tree.links).toEqual([
      { from: 'rules/pricing.md#other', to: 'beta.md', kind: 'link', line: 5 },
      { from: 'README.md', to: 'rules/pricing.md#RULE-1', kind: 'link', line: 3 },
      { from: 'beta.md', to: 'rules/deep/er/x.md', kind: 'mention', line: 3 },
    ]);
    expect(tree.broken).toEqual([{ from: 'missing-links.md', target: 'nowhere.md' }]);
  });
});

describe('determinism', () => {
  it('the same documents in any order build the same tree', () => {
    const want = buildTree(corpus);
    for (const seed of [1, 2, 3, 42]) expect(buildTree(shuffled(corpus, seed))).toEqual(want);
  });

  it('assembling JSON round-tripped parsed documents gives the same tree', () => {
    const indexed = corpus.filter((d) => d.path.endsWith('.md') && !d.path.startsWith('restricted/'));
    const parsed = indexed.map(parseDocument);
    const stored: ParsedDocument[] = JSON.parse(JSON.stringify(shuffled(parsed, 7)));
    expect(assembleTree(stored)).toEqual(assembleTree(parsed));
    expect(JSON.stringify(assembleTree(stored))).toBe(JSON.stringify(assembleTree(parsed)));
  });

  it('an incremental assembly (one document parsed again) equals a whole build', () => {
    const parsed = corpus
      .filter((d) => d.path.endsWith('.md') && !d.path.startsWith('restricted/'))
      .map(parseDocument);
    const edited = doc('beta.md', '# Beta\n\nNow links [x](zeta.md).\n');
    const incremental = assembleTree([...parsed.filter((p) => p.path !== 'beta.md'), parseDocument(edited)]);
    const whole = buildTree([...corpus.filter((d) => d.path !== 'beta.md'), edited]);
    expect(incremental.nodes).toEqual(whole.nodes);
    expect(incremental.links).toEqual(whole.links);
    expect(incremental.broken).toEqual(whole.broken);
  });

  it('refuses a parsed document of another parser version', () => {
    const old = { ...parseDocument(doc('old.md')), version: 0 } as unknown as ParsedDocument;
    expect(() => assembleTree([old])).toThrow(/old\.md was parsed by parser version 0/);
  });

  it('a path given twice keeps the same copy whatever the order', () => {
    const a = parseDocument(doc('same.md', 'one'));
    const b = parseDocument(doc('same.md', 'two'));
    const first = assembleTree([a, b]);
    expect(assembleTree([b, a])).toEqual(first);
    expect(first.skipped).toEqual([{ path: 'same.md', reason: SKIP_DUPLICATE }]);
  });
});

describe(`at most ${MAX_DOCUMENTS} documents`, () => {
  it('keeps the first paths and skips the rest with a reason', () => {
    const one = parseDocument(doc('d.md', '# D\n\nText.\n'));
    const docs: ParsedDocument[] = [];
    for (let i = 0; i < MAX_DOCUMENTS + 3; i++) {
      const path = `f${i % 10}/d${String(i).padStart(6, '0')}.md`;
      docs.push({ ...one, path, nodes: one.nodes.map((n) => ({ ...n, id: path })) });
    }
    const tree = assembleTree(shuffled(docs, 3));
    expect(tree.nodes.filter((n) => n.kind === 'document').length).toBe(MAX_DOCUMENTS);
    const last = docs
      .map((d) => d.path)
      .sort()
      .slice(-3);
    expect(last).toEqual(['f9/d019979.md', 'f9/d019989.md', 'f9/d019999.md']);
    expect(tree.skipped).toEqual(last.map((path) => ({ path, reason: SKIP_DOCUMENT_CAP })));
    expect(tree.nodes.some((n) => last.includes(n.id))).toBe(false);
  });
});
