import { describe, expect, it } from 'vitest';
import { assemble, assembleTree, MAX_DOCUMENTS, treeOf } from './assemble.ts';
import { parseDocument } from './parse.ts';
import type { ParsedDocument } from './parsed.ts';
import { type AssemblyDelta, reassemble } from './reassemble.ts';
import type { BuiltTree, Change } from './types.ts';

/** A small seeded generator (no Math.random: a failing run can be replayed from its seed). */
function generator(seed: number) {
  let s = seed;
  const next = (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((s / 2 ** 31) * n);
  };
  return { next, pick: <T>(items: readonly T[]) => items[next(items.length)] as T };
}

// Folders that appear and go, README and index pages that lead their folder, one-document folders.
const PATHS = [
  'README.md',
  'index.md',
  'alpha.md',
  'Beta.md',
  'docs/README.md',
  'docs/guide.md',
  'docs/Zeta.md',
  'docs/deep/index.md',
  'docs/deep/x.md',
  'docs/deep/er/only.md',
  'rules/pricing.md',
  'rules/travel.md',
  'solo/one.md',
  'x.md/inside.md',
];
const IDS = ['RULE-1', 'RULE-2', 'RULE-3', 'ADR-001', 'ADR-002', 'ADR-003', 'ADR-004', 'ADR-005'];
const TARGETS = [
  '/docs/guide.md',
  '../alpha.md',
  '/rules/pricing.md#rule-1',
  '/rules/pricing.md#RULE-2',
  '/docs/',
  '/docs/deep',
  '/solo/',
  '/x.md',
  '/missing.md',
  '/big.md',
  '/README.md#summary',
];

function page(g: ReturnType<typeof generator>, path: string): string {
  const lines: string[] = [];
  if (g.next(4) === 0) lines.push('---', `id: ${g.pick(IDS)}`, `title: Titled ${g.next(5)}`, '---');
  if (g.next(5) > 0) lines.push(`# Page ${path} ${g.next(3)}`, '');
  // Mentions are rare enough that most changes reach few documents through them.
  const mention = () => (g.next(4) === 0 ? ` and ${g.pick(IDS)}` : '');
  if (g.next(2) === 0) lines.push(`About ${path}, see [there](${g.pick(TARGETS)})${mention()}.`, '');
  for (let i = g.next(3); i > 0; i--) {
    const card = g.next(3) === 0;
    lines.push(card ? `## ${g.pick(IDS)} A rule` : `## ${g.pick(['Summary', 'Details', 'Scope'])}`, '');
    lines.push(`Text ${g.next(100)} [link](${g.pick(TARGETS)})${mention()}.`, '');
  }
  return `${lines.join('\n')}\n`;
}

const change = (g: ReturnType<typeof generator>): Change | null =>
  g.next(3) === 0
    ? null
    : { commit: `c${g.next(9)}`, date: `2024-0${1 + g.next(9)}-01T00:00:00Z`, subject: 's' };

function parsed(g: ReturnType<typeof generator>, path: string): ParsedDocument {
  return parseDocument({ path, text: page(g, path), changed: change(g) });
}

/** Node rows and link lists by id, as a build stores them. */
function rowsOf(tree: BuiltTree) {
  const nodes = new Map(tree.nodes.map((n) => [n.id, JSON.stringify(n)]));
  const links = new Map<string, string[]>();
  for (const l of tree.links) links.set(l.from, [...(links.get(l.from) ?? []), JSON.stringify(l)]);
  return { nodes, links };
}

/** Every row that differs between two trees is one the delta names, with its value now. */
function expectDeltaCovers(before: BuiltTree, after: BuiltTree, delta: AssemblyDelta): void {
  const a = rowsOf(before);
  const b = rowsOf(after);
  const named = new Map(delta.nodes.map((n) => [n.id, JSON.stringify(n)]));
  for (const [id, row] of b.nodes) {
    if (a.nodes.get(id) !== row) expect(named.get(id), `node ${id}`).toBe(row);
    if (named.has(id)) expect(named.get(id), `node ${id}`).toBe(row);
  }
  const gone = [...a.nodes.keys()].filter((id) => !b.nodes.has(id)).sort();
  expect([...delta.goneNodes].sort()).toEqual(gone);
  for (const from of new Set([...a.links.keys(), ...b.links.keys()])) {
    const now = b.links.get(from) ?? [];
    if (JSON.stringify(a.links.get(from) ?? []) !== JSON.stringify(now))
      expect(
        delta.links.get(from)?.map((l) => JSON.stringify(l)),
        `links of ${from}`,
      ).toEqual(now);
  }
  for (const [from, list] of delta.links)
    expect(
      list.map((l) => JSON.stringify(l)),
      `links of ${from}`,
    ).toEqual(b.links.get(from) ?? []);
  expect(delta.broken).toEqual(after.broken);
}

describe('[T14] an incremental assembly', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
    it(`equals a whole assembly after each change, and names every row that differs (seed ${seed})`, () => {
      const g = generator(seed);
      const docs = new Map<string, ParsedDocument>();
      for (const p of PATHS) if (g.next(2) === 0) docs.set(p, parsed(g, p));
      let others = ['big.md'];
      const state = assemble([...docs.values()], { otherPaths: others, rootTitle: 'handbook' });
      let before = treeOf(state);
      for (let step = 0; step < 40; step++) {
        const changes = new Map<string, ParsedDocument | null>();
        for (let k = 1 + g.next(3); k > 0; k--) {
          const path = g.pick(PATHS);
          // Removed, added, edited, or the same document again (only its last change differs).
          const next = docs.has(path) && g.next(3) === 0 ? null : parsed(g, path);
          changes.set(path, next);
          if (next) docs.set(path, next);
          else docs.delete(path);
        }
        if (g.next(5) === 0) others = others.length ? [] : ['big.md'];
        const delta = reassemble(state, { docs: changes, otherPaths: others, rootTitle: 'handbook' });
        expect(delta).not.toBeNull();
        const whole = assembleTree([...docs.values()], { otherPaths: others, rootTitle: 'handbook' });
        const after = treeOf(state);
        expect(after).toEqual(whole);
        expectDeltaCovers(before, after, delta as AssemblyDelta);
        before = after;
      }
    });
  }

  it('leaves an assembly over the cap, a change that passes it and another root title to a whole assembly', () => {
    const one = parseDocument({ path: 'd.md', text: '# D\n', changed: null });
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const path = `f/d${String(i).padStart(6, '0')}.md`;
        return { ...one, path, nodes: one.nodes.map((x) => ({ ...x, id: path })) };
      });
    const full = assemble(many(MAX_DOCUMENTS));
    const extra = { ...one, path: 'g.md', nodes: one.nodes.map((x) => ({ ...x, id: 'g.md' })) };
    expect(reassemble(full, { docs: new Map([['g.md', extra]]), otherPaths: [] })).toBeNull();
    expect(full.docs.has('g.md')).toBe(false);
    const over = assemble(many(MAX_DOCUMENTS + 1));
    expect(reassemble(over, { docs: new Map([['f/d000001.md', null]]), otherPaths: [] })).toBeNull();
    const small = assemble([one], { rootTitle: 'a' });
    expect(reassemble(small, { docs: new Map(), otherPaths: [], rootTitle: 'b' })).toBeNull();
  });
});
