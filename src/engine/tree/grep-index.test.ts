import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { type GitRepo, gitRepo } from '../testing/git-repo.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { refreshGrepIndex } from './grep-index.ts';
import { buildSource } from './sources.ts';

let ws: TestWorkspace;
let engine: Engine;
let repo: string;

let r: GitRepo;
const git = (...args: string[]) => r.git(...args);
const put = (path: string, text: string) => r.put(path, text);
const commit = (message: string) => r.commit(message);

type Match = { node: string; title: string; path: string; line: number; text: string };
type GrepResult = { matches: Match[]; truncated: boolean };

const call = (name: string, input: unknown) =>
  runCommand(memberContext(engine, 'cli'), name, input) as Promise<Record<string, unknown>>;
const grep = (input: { text: string; under?: string; ignoreCase?: boolean }) =>
  call('trees.grep', input) as Promise<GrepResult>;

async function connect(): Promise<string> {
  const source = await call('trees.connect', { folder: repo });
  expect(source.state).toBe('ready');
  return String(source.id);
}

const count = (table: string) =>
  (engine.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  repo = join(ws.files, 'handbook');
  r = gitRepo(repo);
});
afterEach(() => ws.cleanup());

/** A seeded generator of numbers below n. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

const VOCABULARY = [
  'zebra',
  'Zebra',
  'ZEBRA',
  'refund',
  'Refunds',
  'finance',
  'lead',
  'ab',
  'x',
  'Größe',
  'größe',
  'Übermäßig',
  'straße',
  '意思決定',
  '記録',
  'テンプレート',
  'ΟΔΟΣ',
  'οδος',
  'a"b',
  'İstanbul',
];

/** The paths of the generated repository's documents, in the order a tree's ids sort. */
const PATHS = [
  'README.md',
  'billing/refunds.md',
  'billing/rules.md',
  'docs/deep/c.md',
  'docs/ä.md',
  'docs2/x.md',
];

function generate(rand: (n: number) => number): void {
  for (const path of PATHS) {
    const lines: string[] = [`# ${path}`, ''];
    for (let s = 0; s < 3; s++) {
      lines.push(`## Part ${s}`, '');
      for (let l = 0; l < 12; l++) {
        const words = Array.from({ length: 1 + rand(6) }, () => VOCABULARY[rand(VOCABULARY.length)]);
        lines.push(words.join(rand(3) === 0 ? '' : ' '));
      }
      lines.push('');
    }
    put(path, `${lines.join('\n')}\n`);
  }
}

/** What grep must answer, from the files themselves: every line holding every word, in path then line order. */
function bruteForce(text: string, ignoreCase: boolean, paths: readonly string[], range?: [number, number]) {
  const t = text.trim();
  const quoted = /^"(.+)"$/.exec(t);
  const words = quoted?.[1] ? [quoted[1]] : t.split(/\s+/).filter(Boolean);
  const wanted = ignoreCase ? words.map((w) => w.toLowerCase()) : words;
  const out: { path: string; line: number; text: string }[] = [];
  for (const path of paths) {
    const lines = readFileSync(join(repo, path), 'utf8').split('\n');
    lines.pop();
    lines.forEach((line, i) => {
      const n = i + 1;
      if (range && (n < range[0] || n > range[1])) return;
      const hay = ignoreCase ? line.toLowerCase() : line;
      if (wanted.every((w) => hay.includes(w))) out.push({ path, line: n, text: line });
    });
  }
  return { matches: out.slice(0, 50), truncated: out.length > 50 };
}

/** The node a match names holds its line as its own text. */
function expectDeepest(tree: string, m: Match): void {
  const node = engine.db
    .prepare('SELECT path, line_start, own_end FROM tree_nodes WHERE source_id = ? AND id = ?')
    .get(tree, m.node) as { path: string; line_start: number; own_end: number };
  expect(node.path).toBe(m.path);
  expect(node.line_start).toBeLessThanOrEqual(m.line);
  expect(node.own_end).toBeGreaterThanOrEqual(m.line);
}

describe('[T11] grep from the grep index', () => {
  it('answers what a brute-force scan of the files answers, for words, phrases, cases and scopes', async () => {
    const rand = random(11);
    generate(rand);
    commit('generated');
    const tree = await connect();
    const queries: { text: string; ignoreCase: boolean; under?: string }[] = [];
    for (let q = 0; q < 120; q++) {
      const words = Array.from({ length: 1 + rand(2) }, () => VOCABULARY[rand(VOCABULARY.length)] as string);
      const phrase = rand(4) === 0 ? `"${words.join(' ')}"` : words.join(' ');
      const under = [undefined, '/', 'billing/', 'docs/', 'docs/deep/', 'billing/refunds.md'][rand(6)];
      queries.push({ text: phrase, ignoreCase: rand(2) === 0, under });
    }
    queries.push(
      { text: 'ab', ignoreCase: true },
      { text: 'x', ignoreCase: false },
      { text: 'Part', ignoreCase: true },
    );
    let found = 0;
    let truncated = 0;
    for (const q of queries) {
      const paths = PATHS.filter(
        (p) => !q.under || q.under === '/' || p === q.under || p.startsWith(q.under),
      );
      const got = await grep(q);
      const want = bruteForce(q.text, q.ignoreCase, paths);
      expect(
        {
          matches: got.matches.map(({ path, line, text }) => ({ path, line, text })),
          truncated: got.truncated,
        },
        JSON.stringify(q),
      ).toEqual(want);
      for (const m of got.matches) expectDeepest(tree, m);
      if (got.matches.length > 0) found++;
      if (got.truncated) truncated++;
    }
    // The comparison means something: most queries find lines, some more than 50.
    expect(found).toBeGreaterThan(queries.length / 2);
    expect(truncated).toBeGreaterThan(0);
    // Under a section: the lines of its range (its own and its subsections').
    const part = engine.db
      .prepare(
        "SELECT line_start, line_end FROM tree_nodes WHERE source_id = ? AND id = 'billing/rules.md#part-1'",
      )
      .get(tree) as { line_start: number; line_end: number };
    const got = await grep({ text: 'a', under: 'billing/rules.md#part-1' });
    expect(got.matches.map(({ path, line, text }) => ({ path, line, text }))).toEqual(
      bruteForce('a', true, ['billing/rules.md'], [part.line_start, part.line_end]).matches,
    );
  });

  it('finds a changed document’s new lines and not its old ones, and forgets a deleted document', async () => {
    put('a.md', '# A\n\nThe old wording of the rule.\n');
    put('b.md', '# B\n\nA page that goes away, with its quokka.\n');
    for (let i = 0; i < 5; i++) put(`other/o${i}.md`, `# O${i}\n\nNothing to see.\n`);
    commit('start');
    const tree = await connect();
    expect((await grep({ text: 'old wording' })).matches.map((m) => m.path)).toEqual(['a.md']);
    expect((await grep({ text: 'quokka' })).matches.map((m) => m.path)).toEqual(['b.md']);
    expect(count('tree_grep_docs')).toBe(7);
    const linesOf = (path: string) =>
      engine.db.prepare('SELECT id, line FROM tree_grep_lines WHERE path = ? ORDER BY line').all(path);
    const before = { a: linesOf('a.md'), o0: linesOf('other/o0.md') };

    put('a.md', '# A\n\nThe new wording of the rule.\n\nAnd a second line.\n');
    git('rm', '-q', 'b.md');
    commit('change a, drop b');
    await buildSource(engine, tree);
    expect((await grep({ text: 'old wording' })).matches).toEqual([]);
    expect((await grep({ text: 'NEW wording' })).matches).toEqual([
      expect.objectContaining({ path: 'a.md', line: 3, text: 'The new wording of the rule.' }),
    ]);
    expect((await grep({ text: 'second' })).matches).toEqual([expect.objectContaining({ line: 5 })]);
    expect((await grep({ text: 'quokka' })).matches).toEqual([]);
    expect(linesOf('b.md')).toEqual([]);
    expect(count('tree_grep_docs')).toBe(6);
    // Only what differs was indexed again: the other documents keep their rows.
    expect(linesOf('other/o0.md')).toEqual(before.o0);
    expect(linesOf('a.md')).not.toEqual(before.a);
    expect(refreshGrepIndex(engine, tree)).toEqual({ indexed: 0, dropped: 0 });
    // An index behind its tree (as when a build wrote documents since) is compared and mended.
    engine.db.prepare('DELETE FROM tree_grep_sources').run();
    engine.db.prepare("DELETE FROM tree_grep_docs WHERE path = 'other/o1.md'").run();
    engine.db.prepare("INSERT INTO tree_grep_docs (source_id, path) VALUES (?, 'gone.md')").run(tree);
    expect(refreshGrepIndex(engine, tree)).toEqual({ indexed: 1, dropped: 1 });
    expect(linesOf('other/o1.md')).toHaveLength(2);

    // A document changed and read by grep without anyone refreshing first.
    put('other/o3.md', '# O3\n\nNow with a wombat.\n');
    commit('wombat');
    await buildSource(engine, tree);
    expect((await grep({ text: 'wombat' })).matches).toEqual([
      expect.objectContaining({ node: 'other/o3.md', line: 3 }),
    ]);
  });

  it('is case-insensitive by default and case-sensitive when asked', async () => {
    put('z.md', '# Z\n\nThe Zebra crossing.\n\nA zebra crossing.\n\nZEBRA CROSSING.\n');
    commit('zebras');
    await connect();
    const lines = async (text: string, ignoreCase?: boolean) =>
      (await grep({ text, ignoreCase })).matches.map((m) => m.line);
    expect(await lines('zebra crossing')).toEqual([3, 5, 7]);
    expect(await lines('Zebra', false)).toEqual([3]);
    expect(await lines('zebra crossing', false)).toEqual([5]);
    expect(await lines('"ZEBRA CROSSING"', false)).toEqual([7]);
    expect(await lines('"Zebra crossing"', false)).toEqual([3]);
    expect(await lines('"crossing zebra"')).toEqual([]);
  });

  it('finds German and Japanese lines, long words and short ones', async () => {
    put(
      'notizen/größe.md',
      [
        '# Größe',
        '',
        'Die Größe der Straße ist übermäßig.',
        'Keine Umlaute hier.',
        '',
        '## 意思決定',
        '',
        'マイケル・ナイガードによる意思決定記録テンプレート',
        '記録だけ',
        'ΟΔΟΣΑ',
        '',
      ].join('\n'),
    );
    commit('umlauts');
    await connect();
    const at = async (text: string, ignoreCase?: boolean) =>
      (await grep({ text, ignoreCase })).matches.map((m) => [m.node, m.line]);
    expect(await at('GRÖSSE')).toEqual([]);
    expect(await at('größe straße')).toEqual([['notizen/größe.md', 3]]);
    expect(await at('ÜBERMÄẞIG')).toEqual([['notizen/größe.md', 3]]);
    expect(await at('Größe', false)).toEqual([
      ['notizen/größe.md', 1],
      ['notizen/größe.md', 3],
    ]);
    expect(await at('größe', false)).toEqual([]);
    expect(await at('意思決定記録')).toEqual([['notizen/größe.md#意思決定', 8]]);
    expect(await at('記録')).toEqual([
      ['notizen/größe.md#意思決定', 8],
      ['notizen/größe.md#意思決定', 9],
    ]);
    expect(await at('テンプレート 意思')).toEqual([['notizen/größe.md#意思決定', 8]]);
    // A capital sigma lower-cases by its place in the word (ΟΔΟΣ alone: οδος; in ΟΔΟΣΑ: οδοσα);
    // the index still finds what a scan does.
    expect(await at('ΟΔΟΣ', false)).toEqual([['notizen/größe.md#意思決定', 10]]);
    expect(await at('ΟΔΟΣ')).toEqual([]);
  });

  it('at most 50 lines, then truncated', async () => {
    put('many.md', `${Array.from({ length: 60 }, (_, i) => `line ${i} of many`).join('\n')}\n`);
    put('more.md', '# More\n\nNothing here.\n');
    commit('many');
    await connect();
    const all = await grep({ text: 'of many' });
    expect(all.matches).toHaveLength(50);
    expect(all.truncated).toBe(true);
    expect(all.matches.at(-1)).toMatchObject({ line: 50, text: 'line 49 of many' });
    const fifty = await grep({ text: '"line 4"' });
    expect(fifty.matches.map((m) => m.line)).toEqual([5, ...Array.from({ length: 10 }, (_, i) => 41 + i)]);
    expect(fifty.truncated).toBe(false);
  });

  it('answers from the documents while another process holds the write lock, and is deleted with its source', async () => {
    put('a.md', '# A\n\nThe lock test line.\n');
    commit('a');
    const tree = await connect();
    put('a.md', '# A\n\nThe lock test line, changed.\n');
    commit('changed');
    await buildSource(engine, tree);
    // Whoever refreshed the index since, it is behind the tree again when the lock is taken.
    engine.db.prepare('DELETE FROM tree_grep_sources').run();
    engine.db.prepare("DELETE FROM tree_grep_docs WHERE path = 'a.md'").run();
    const other = new Database(engine.db.name);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const started = Date.now();
      expect((await grep({ text: 'changed lock' })).matches).toEqual([
        expect.objectContaining({ path: 'a.md', line: 3 }),
      ]);
      expect(Date.now() - started).toBeLessThan(5_000);
      other.prepare('ROLLBACK').run();
    } finally {
      other.close();
    }
    expect((await grep({ text: 'changed lock' })).matches).toHaveLength(1);
    expect(count('tree_grep_lines')).toBeGreaterThan(0);
    // Deleted with its source, trigrams too (tree_sources(id) ON DELETE CASCADE, then the trigger).
    engine.db.prepare('DELETE FROM tree_sources WHERE id = ?').run(tree);
    expect(['tree_grep_docs', 'tree_grep_lines', 'tree_grep_fts', 'tree_grep_sources'].map(count)).toEqual([
      0, 0, 0, 0,
    ]);
  });
});
