import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { type GitRepo, gitRepo } from '../testing/git-repo.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { buildSource } from './sources.ts';

let ws: TestWorkspace;
let engine: Engine;
let repo: string;

let r: GitRepo;
const git = (...args: string[]) => r.git(...args);
const put = (path: string, text: string) => r.put(path, text);
const commit = (message: string) => r.commit(message);

const call = (name: string, input: unknown, surface: 'cli' | 'agent' = 'cli') =>
  runCommand(memberContext(engine, surface), name, input) as Promise<Record<string, unknown>>;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  repo = join(ws.files, 'handbook');
  r = gitRepo(repo);
});
afterEach(() => ws.cleanup());

describe('repository trees', () => {
  it('[T1] [T4] [T10] [T11] connects a repository, builds its tree and reads it at the indexed commit', async () => {
    put('README.md', '# Handbook\n\nHow we work at Acme.\n');
    put(
      'policies/travel.md',
      '# Travel\n\nTaxis after 22:00 are reimbursed.\n\n## Trains\n\nTrains are preferred under four hours.\n',
    );
    const first = commit('Add the travel policy');
    const source = await call('trees.connect', { folder: repo });
    expect(source).toMatchObject({
      state: 'ready',
      indexedCommit: first,
      branch: 'main',
      isGit: true,
      scope: 'org',
    });
    expect((source.counts as { documents: number }).documents).toBe(2);

    const root = await call('trees.tree', {});
    const children = root.children as {
      id: string;
      kind: string;
      changed: { commit: string; subject: string } | null;
    }[];
    expect(children.map((c) => c.id)).toEqual(['policies/', 'README.md']);
    expect(children[1]?.changed).toMatchObject({ commit: first, subject: 'Add the travel policy' });

    const read = await call('trees.read', { node: 'policies/travel.md#trains' }, 'agent');
    expect(read.citation).toEqual({
      nodeId: 'policies/travel.md#trains',
      path: 'policies/travel.md',
      lineStart: 5,
      lineEnd: 7,
      commit: first,
    });
    expect(read.text).toBe('5\t## Trains\n6\t\n7\tTrains are preferred under four hours.');

    // The folder moves on; reads keep the indexed commit until a build.
    put('policies/travel.md', '# Travel\n\nTaxis are never reimbursed.\n');
    const second = commit('Stop taxis');
    const still = await call('trees.read', { node: 'policies/travel.md' });
    expect(still.text).toContain('Taxis after 22:00');
    const rebuilt = await call('trees.rebuild', {});
    expect(rebuilt.indexedCommit).toBe(second);
    expect((await call('trees.read', { node: 'policies/travel.md' })).text).toContain('never reimbursed');
    await expect(call('trees.read', { node: 'policies/travel.md#trains' })).rejects.toMatchObject({
      code: 'not-found',
    });
  });

  it('[T3] stores the documents as files of the workspace, found by search', async () => {
    put('decisions/adr-001.md', '# ADR-001 Use SQLite\n\nWe keep a local replica in SQLite.\n');
    commit('ADR-001');
    await call('trees.connect', { folder: repo });
    const found = await engine.search('local replica SQLite', { mode: 'keyword' });
    expect(found.hits.some((h) => h.label.includes('adr-001'))).toBe(true);
  });

  it('[T11] lookup, grep, backlinks and broken links', async () => {
    put('a.md', '# A\n\nSee [b](b.md#details) and [gone](missing.md).\n');
    put('b.md', '# B\n\n## Details\n\nThe zebra crossing rule.\n');
    commit('two pages');
    await call('trees.connect', { folder: repo });
    expect(((await call('trees.lookup', { query: 'b.md' })).matches as unknown[]).length).toBe(1);
    const grep = await call('trees.grep', { text: 'crossing ZEBRA' });
    expect(grep.matches).toEqual([expect.objectContaining({ node: 'b.md#details', path: 'b.md', line: 5 })]);
    const back = await call('trees.backlinks', { node: 'b.md' });
    expect(back).toMatchObject({ total: 1, items: [{ node: 'a.md', target: 'b.md#details' }] });
    await expect(call('trees.backlinks', { node: '/' })).rejects.toMatchObject({ code: 'validation-failed' });
    expect((await call('trees.broken', {})).links).toEqual([{ from: 'a.md', target: 'missing.md' }]);
  });

  it('[T1] a plain folder works without history, and reads refuse before a first build', async () => {
    const folder = join(ws.files, 'notes');
    mkdirSync(folder);
    writeFileSync(join(folder, 'one.md'), '# One\n\nThe first note.\n');
    await expect(call('trees.tree', {})).rejects.toMatchObject({ code: 'not-found' });
    const source = await call('trees.connect', { folder });
    expect(source).toMatchObject({ isGit: false, branch: null, state: 'ready' });
    expect(String(source.indexedCommit)).toMatch(/^folder:/);
    const tree = await call('trees.tree', {});
    expect((tree.children as { changed: unknown }[])[0]?.changed).toBeNull();
  });

  it('[T1] a tree in a scope the reader is not in is not there for them', async () => {
    put('secret.md', '# Secret\n\nOnly the legal team.\n');
    commit('secret');
    engine.db
      .prepare("INSERT INTO teams (id, name, created_at) VALUES ('legal', 'Legal', '2026-01-01')")
      .run();
    engine.db.prepare("INSERT INTO team_members (team_id, user_id) VALUES ('legal', ?)").run(engine.user);
    await call('trees.connect', { folder: repo, scope: 'team:legal' });
    engine.db.prepare('DELETE FROM team_members').run();
    await expect(call('trees.tree', {})).rejects.toMatchObject({ code: 'not-found' });
  });

  it('[T4] an incremental build over each commit stores the same rows as a whole build of it, with and without the memo of the last build', async () => {
    // A generated repository whose history adds, edits, moves and deletes documents and links.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${['', 'docs/', 'docs/deep/'][rand(3)]}${n}.md`);
    const live = new Set<string>();
    const page = (name: string) =>
      `# Page ${name}\n\nAbout ${name} and [the next](/${names[rand(names.length)]}).\n\n## Part ${rand(5)}\n\nText ${rand(1000)} see ADR-00${rand(4)}.\n`;
    for (const n of names.slice(0, 3)) {
      put(n, page(n));
      live.add(n);
    }
    put('docs/adr.md', '# Decisions\n\n## ADR-001 Use Git\n\nYes.\n');
    // Enough documents that one change is at most a fifth of them (an incremental build's bound).
    for (let i = 0; i < 30; i++) put(`static/s${i}.md`, `# Static ${i}\n\nSee [a](/a.md) and ADR-001.\n`);
    commit('start');
    const source = await call('trees.connect', { folder: repo });
    const tree = String(source.id);
    const rows = () => ({
      nodes: engine.db.prepare('SELECT * FROM tree_nodes WHERE source_id = ? ORDER BY id').all(tree),
      links: engine.db
        .prepare('SELECT * FROM tree_links WHERE source_id = ? ORDER BY from_id, ordinal')
        .all(tree),
      broken: engine.db.prepare('SELECT * FROM tree_broken WHERE source_id = ? ORDER BY ordinal').all(tree),
    });
    let incremental = 0;
    for (let step = 0; step < 12; step++) {
      const name = names[rand(names.length)] as string;
      if (live.has(name) && rand(4) === 0) {
        git('rm', '-q', name);
        live.delete(name);
      } else {
        put(name, page(name));
        live.add(name);
      }
      commit(`step ${step}`);
      // Odd steps build in another process's place (a second connection to the file): it has no
      // memo of the last build and reads the stored rows instead.
      const other = step % 2 === 1 ? ws.open() : null;
      const built = await buildSource(other ?? engine, tree);
      await other?.close();
      if (!built.whole) incremental++;
      const afterIncremental = rows();
      const whole = await buildSource(engine, tree, { rebuild: true });
      expect(whole.whole).toBe(true);
      expect(rows()).toEqual(afterIncremental);
    }
    expect(incremental).toBeGreaterThan(6);
  });
});
