/**
 * The tree of a real Markdown corpus (../shared/corpus: the Basecamp handbook, and an ADR corpus
 * in seven languages with non-ASCII and spaced paths): structural invariants only. A missing
 * corpus fails, with where it was looked for: it never skips.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembleTree } from './assemble.ts';
import { buildTree } from './build.ts';
import { gitLineCount } from './lines.ts';
import { parseDocument } from './parse.ts';
import { indexablePath } from './paths.ts';
import { MAX_SUMMARY } from './summary.ts';
import type { BuiltTree, TreeDoc } from './types.ts';

const SHARED = resolve(
  process.env.BRAIN_SHARED_DIR ?? fileURLToPath(new URL('../../../../shared', import.meta.url)),
);
const CORPUS = join(SHARED, 'corpus');

function readCorpus(folder: string): TreeDoc[] {
  const root = join(CORPUS, folder);
  if (!existsSync(root)) {
    throw new Error(
      `The corpus folder ${root} is missing: the tree tests need ../shared/corpus (or BRAIN_SHARED_DIR)`,
    );
  }
  const docs: TreeDoc[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        docs.push({
          path: relative(root, path).split(sep).join('/'),
          text: readFileSync(path, 'utf8'),
          changed: null,
        });
    }
  };
  walk(root);
  return docs;
}

function checkInvariants(tree: BuiltTree, docs: TreeDoc[]) {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  expect(byId.size).toBe(tree.nodes.length);
  const texts = new Map(docs.map((d) => [d.path, d.text]));
  const seen = new Set<string>();
  for (const node of tree.nodes) {
    if (node.kind === 'root') expect(node.parent).toBeNull();
    else {
      expect(node.parent, node.id).not.toBeNull();
      expect(seen.has(node.parent!), `${node.id}: parent ${node.parent} comes first`).toBe(true);
    }
    seen.add(node.id);
    expect(node.title.length, node.id).toBeGreaterThan(0);
    expect(node.summary.length, node.id).toBeLessThanOrEqual(MAX_SUMMARY);
    if (node.kind === 'root' || node.kind === 'folder') {
      expect([node.lineStart, node.ownEnd, node.lineEnd]).toEqual([0, 0, 0]);
      continue;
    }
    const text = texts.get(node.path);
    expect(text, node.id).toBeDefined();
    const lines = gitLineCount(text!);
    expect(node.lineStart, node.id).toBeGreaterThanOrEqual(1);
    expect(node.ownEnd, node.id).toBeGreaterThanOrEqual(node.lineStart - 1);
    expect(node.lineEnd, node.id).toBeGreaterThanOrEqual(node.ownEnd);
    expect(node.lineEnd, node.id).toBeLessThanOrEqual(lines);
    if (node.kind === 'document') expect(node.lineEnd).toBe(lines);
    else {
      const parent = byId.get(node.parent!)!;
      expect(node.lineStart, node.id).toBeGreaterThan(parent.ownEnd);
      expect(node.lineEnd, node.id).toBeLessThanOrEqual(parent.lineEnd);
    }
  }
  const ordinals = new Map<string, number[]>();
  for (const node of tree.nodes) {
    if (node.parent) ordinals.set(node.parent, [...(ordinals.get(node.parent) ?? []), node.ordinal]);
  }
  for (const [parent, list] of ordinals) expect(list, parent).toEqual(list.map((_, i) => i));
  for (const link of tree.links) {
    expect(byId.has(link.from), link.from).toBe(true);
    expect(byId.has(link.to), link.to).toBe(true);
  }
  const indexed = docs.filter((d) => indexablePath(d.path, Buffer.byteLength(d.text)) === null);
  expect(tree.nodes.filter((n) => n.kind === 'document').length).toBe(indexed.length);
  const chars = indexed.reduce((n, d) => n + d.text.length, 0);
  expect(byId.get('/')!.tokens).toBe(Math.ceil(chars / 4));
}

describe('the tree of a real corpus', () => {
  it('the Basecamp handbook', () => {
    const docs = readCorpus('basecamp-handbook');
    const tree = buildTree(docs);
    checkInvariants(tree, docs);
    expect(tree.nodes.find((n) => n.id === 'titles-for-QA.md')).toBeDefined();
    expect(tree.nodes.find((n) => n.id === '/')!.summarySource).toBe('readme');
    expect(tree.skipped).toEqual([]);
  });

  it('the ADR corpus, with non-ASCII and spaced paths', () => {
    const docs = readCorpus('architecture-decision-record');
    const tree = buildTree(docs);
    checkInvariants(tree, docs);
    const ids = tree.nodes.map((n) => n.id);
    expect(ids).toContain('locales/ja/テンプレート/Michael Nygard による意思決定記録テンプレート/index.md');
    expect(tree.skipped.map((s) => s.reason)).toEqual(
      docs.filter((d) => !d.path.endsWith('.md')).map(() => 'not Markdown'),
    );
    expect(tree.links.length).toBeGreaterThan(100);
    // Any order of the same files, and an assembly of stored parsed documents, give the same tree.
    expect(buildTree([...docs].reverse())).toEqual(tree);
    const stored = JSON.parse(JSON.stringify(docs.filter((d) => d.path.endsWith('.md')).map(parseDocument)));
    const otherPaths = docs.filter((d) => !d.path.endsWith('.md')).map((d) => d.path);
    const assembled = assembleTree(stored, { otherPaths });
    expect(assembled.nodes).toEqual(tree.nodes);
    expect(assembled.links).toEqual(tree.links);
    expect(assembled.broken).toEqual(tree.broken);
  });
});
