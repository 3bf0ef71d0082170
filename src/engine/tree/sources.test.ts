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

  it('[T1] --branch names a branch to follow: a tag, a commit or a revision is refused, naming why', async () => {
    put('a.md', '# A\n');
    const first = commit('start');
    git('tag', 'v1');
    git('branch', 'draft');
    for (const name of ['HEAD~0', 'v1', first, '--all', 'nope']) {
      await expect(call('trees.connect', { folder: repo, branch: name })).rejects.toThrow(
        `${JSON.stringify(name)} is not a branch of ${repo}`,
      );
    }
    expect(engine.db.prepare('SELECT count(*) AS n FROM tree_sources').get()).toEqual({ n: 0 });
    const source = await call('trees.connect', { folder: repo, branch: 'draft' });
    expect(source).toMatchObject({ branch: 'draft' });
  });

  it('[T1] a tree follows its branch, not a tag of the same name', async () => {
    put('a.md', '# A\n');
    commit('start');
    git('tag', 'release');
    put('b.md', '# B\n');
    const tip = commit('more');
    git('branch', 'release', tip);
    const { id } = await call('trees.connect', { folder: repo, branch: 'release' });
    await call('trees.rebuild', { tree: id });
    const built = (await call('trees.list', {})) as { trees: { id: string; indexedCommit: string | null }[] };
    expect(built.trees.find((t) => t.id === id)?.indexedCommit).toBe(tip);
  });

  it('[T2] status names the Markdown files left out and why, after a whole and an incremental build', async () => {
    put('README.md', '# Handbook\n');
    put('restricted/salaries.md', '# Salaries\n');
    put('scratch/ideas.md', '# Ideas\n');
    put('notes.txt', 'not Markdown, not counted\n');
    commit('start');
    const source = await call('trees.connect', { folder: repo });
    expect((source.counts as { skipped: number }).skipped).toBe(2);
    expect(source.leftOut).toEqual([
      { path: 'restricted/salaries.md', reason: 'under a restricted/ folder' },
      { path: 'scratch/ideas.md', reason: 'under scratch/ at the root' },
    ]);
    put('.hidden/x.md', '# Hidden\n');
    commit('one more');
    await call('trees.rebuild', {});
    const status = await call('trees.status', {});
    expect((status.counts as { skipped: number }).skipped).toBe(3);
    expect((status.leftOut as { path: string }[]).map((f) => f.path)).toEqual([
      '.hidden/x.md',
      'restricted/salaries.md',
      'scratch/ideas.md',
    ]);
  });

  it('[T5] leaves a binary .md file out with its reason, in a whole build and in one from the memo', async () => {
    const binary = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    for (let i = 0; i < 30; i++) put(`p${i}.md`, `# Page ${i}\n\nText.\n`);
    writeFileSync(join(repo, 'logo.md'), binary);
    commit('start');
    const source = await call('trees.connect', { folder: repo });
    const tree = String(source.id);
    expect(source.leftOut).toEqual([{ path: 'logo.md', reason: 'binary content, not text' }]);
    expect(source.counts).toMatchObject({ documents: 30, skipped: 1 });
    const ids = async () => ((await call('trees.tree', {})).children as { id: string }[]).map((c) => c.id);
    expect(await ids()).not.toContain('logo.md');
    // A page that becomes binary, and a new binary file, in a build from the memo.
    writeFileSync(join(repo, 'p1.md'), binary);
    writeFileSync(join(repo, 'more.md'), binary);
    commit('binary');
    expect(await buildSource(engine, tree)).toMatchObject({ whole: false, fromMemo: true });
    const status = await call('trees.status', {});
    const leftOut = [
      { path: 'logo.md', reason: 'binary content, not text' },
      { path: 'more.md', reason: 'binary content, not text' },
      { path: 'p1.md', reason: 'binary content, not text' },
    ];
    expect(status.leftOut).toEqual(leftOut);
    expect(status.counts).toMatchObject({ documents: 29, skipped: 3 });
    expect(await ids()).not.toContain('p1.md');
    const incremental = storedRows(tree);
    // A whole build of the same commit agrees.
    expect(await buildSource(engine, tree, { rebuild: true })).toMatchObject({ whole: true });
    expect(storedRows(tree)).toEqual(incremental);
    expect((await call('trees.status', {})).leftOut).toEqual(leftOut);
    // So does an incremental build from the database (another process, without the memo).
    put('p2.md', '# Page 2\n\nChanged.\n');
    writeFileSync(join(repo, 'p3.md'), binary);
    commit('more');
    const other = ws.open();
    expect(await buildSource(other, tree)).toMatchObject({ whole: false, fromMemo: false });
    await other.close();
    expect(((await call('trees.status', {})).leftOut as { path: string }[]).map((f) => f.path)).toEqual([
      'logo.md',
      'more.md',
      'p1.md',
      'p3.md',
    ]);
  });

  it('[T3] stores the documents as files of the workspace, found by search', async () => {
    put('decisions/adr-001.md', '# ADR-001 Use SQLite\n\nWe keep a local replica in SQLite.\n');
    commit('ADR-001');
    await call('trees.connect', { folder: repo });
    const found = await engine.search('local replica SQLite', { mode: 'keyword' });
    expect(found.hits.some((h) => h.label.includes('ADR-001'))).toBe(true);
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

  it('[T4] a build asked for while the same tree is building is that build, not a second one', async () => {
    const folder = join(ws.files, 'guide');
    mkdirSync(folder);
    writeFileSync(join(folder, 'one.md'), '# One\n\nThe first note.\n');
    const { id } = (await call('trees.connect', { folder })) as { id: string };
    writeFileSync(join(folder, 'two.md'), '# Two\n\nThe second note.\n');
    // The host's watcher and a command at once: one build, one answer.
    const watcher = buildSource(engine, id);
    const command = buildSource(engine, id);
    expect(command).toBe(watcher);
    const built = await watcher;
    expect((built.source.counts as { documents: number }).documents).toBe(2);
    expect(await call('trees.status', { tree: id })).toEqual(built.source);
    // Once it is done, the next build is a build of its own; a rebuild never shares one.
    const next = buildSource(engine, id);
    expect(next).not.toBe(watcher);
    const rebuild = buildSource(engine, id, { rebuild: true });
    expect(rebuild).not.toBe(next);
    await Promise.all([next, rebuild]);
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

  /** Everything a build stores for a tree, in a stable order (times and versions aside). */
  const storedRows = (tree: string) => ({
    nodes: engine.db.prepare('SELECT * FROM tree_nodes WHERE source_id = ? ORDER BY id').all(tree),
    links: engine.db
      .prepare('SELECT * FROM tree_links WHERE source_id = ? ORDER BY from_id, ordinal')
      .all(tree),
    broken: engine.db.prepare('SELECT * FROM tree_broken WHERE source_id = ? ORDER BY ordinal').all(tree),
    docs: engine.db
      .prepare('SELECT path, blob, parsed FROM tree_docs WHERE source_id = ? ORDER BY path')
      .all(tree),
    source: engine.db
      .prepare('SELECT state, indexed_commit, counts, record, error FROM tree_sources WHERE id = ?')
      .get(tree),
    grep: engine.db
      .prepare<[string], { path: string; blob: string; item_id: string; lines: number }>(
        `SELECT d.path, d.blob, d.item_id, (SELECT COUNT(*) FROM tree_grep_lines l
           WHERE l.source_id = d.source_id AND l.path = d.path) AS lines
         FROM tree_grep_docs d WHERE d.source_id = ? ORDER BY d.path`,
      )
      .all(tree),
    items: engine.db
      .prepare(
        // The locator's commit is where the bytes were first stored: rewinding the branch moves it.
        `SELECT id, source_key, blob, json_extract(locator, '$.path') AS path,
           json_extract(locator, '$.changed') AS changed FROM items
         WHERE storage_kind = 'file' AND source_key LIKE ? AND retired_at IS NULL ORDER BY source_key`,
      )
      .all(`tree:${tree}:%`),
  });

  it('[T4] [T14] [T15] each kind of change, built in a row from the memo of the last build, stores what a whole build of its commit stores', async () => {
    put('README.md', '# Handbook\n\nHow we work. See [the guide](docs/guide.md#setup).\n');
    put('docs/index.md', '# Docs\n\nThe docs index.\n');
    put('docs/guide.md', '# Guide\n\n## Setup\n\nInstall it. RULE-7 applies.\n');
    put('docs/alone/only.md', '# Only\n\nThe one page here. See [missing](../nowhere.md).\n');
    put('rules/rule.md', '# Rules\n\n## RULE-7 Keep it short\n\nShort.\n');
    put('rules/other.md', '# Other\n\nLinks [a folder](../docs/) and [a file](/notes/later.md).\n');
    for (let i = 0; i < 40; i++) put(`static/s${i}.md`, `# Static ${i}\n\nSee [rules](/rules/rule.md).\n`);
    put('code/app.ts', 'export const x = 1;\n');
    commit('start');
    const tree = String((await call('trees.connect', { folder: repo })).id);
    const steps: [string, () => void][] = [
      ['a changed document', () => put('docs/guide.md', '# Guide\n\n## Setup\n\nInstall it twice.\n')],
      [
        'an added document a broken link now finds',
        () => put('notes/later.md', '# Later\n\nWritten later.\n'),
      ],
      ['a deleted document', () => git('rm', '-q', 'docs/alone/only.md')],
      ['a renamed document', () => git('mv', 'rules/other.md', 'rules/renamed.md')],
      [
        'a README that comes before the index',
        () => put('docs/README.md', '# Read me\n\nThe docs, first.\n'),
      ],
      [
        'a link added to another document',
        () =>
          put(
            'static/s3.md',
            '# Static 3\n\nSee [rules](/rules/rule.md) and [the guide](/docs/guide.md#setup).\n',
          ),
      ],
      [
        'a title that changes (the folder lists it)',
        () => put('rules/rule.md', '# Rulebook\n\n## RULE-7 Keep it short\n\nShort.\n'),
      ],
      [
        'a card that moves to another document (mentions follow it)',
        () => {
          put('rules/rule.md', '# Rulebook\n\nNo rules here now.\n');
          put(
            'docs/guide.md',
            '# Guide\n\n## Setup\n\nInstall it twice.\n\n## RULE-7 Keep it short\n\nShort.\n',
          );
        },
      ],
      [
        'a document that grows over 2 MiB (links to it are not broken)',
        () => put('notes/later.md', `# Later\n\n${'x'.repeat(2 * 1024 * 1024)}\n`),
      ],
      ['a commit that changes no document', () => put('code/app.ts', 'export const x = 2;\n')],
    ];
    const built: { name: string; commit: string; rows: unknown }[] = [];
    for (const [name, change] of steps) {
      change();
      const at = commit(name);
      const outcome = await buildSource(engine, tree);
      expect({ name, whole: outcome.whole, fromMemo: outcome.fromMemo }).toEqual({
        name,
        whole: false,
        fromMemo: true,
      });
      const rows = storedRows(tree);
      // The grep index holds every document of the tree as it is now ([T11]).
      const documents = engine.db
        .prepare(
          "SELECT id AS path, blob, item_id FROM tree_nodes WHERE source_id = ? AND kind = 'document' ORDER BY id",
        )
        .all(tree);
      expect(rows.grep.map(({ path, blob, item_id }) => ({ path, blob, item_id }))).toEqual(documents);
      built.push({ name, commit: at, rows });
    }
    // Each commit again, whole (the branch set back to it), stores the same rows.
    for (const b of built) {
      git('update-ref', 'refs/heads/main', b.commit);
      const whole = await buildSource(engine, tree, { rebuild: true });
      expect(whole.whole).toBe(true);
      expect({ name: b.name, rows: storedRows(tree) }).toEqual({ name: b.name, rows: b.rows });
    }
  });

  it('[T4] a memo left by a build another process has since replaced is not used: the build reads the database', async () => {
    for (let i = 0; i < 10; i++) put(`p${i}.md`, `# Page ${i}\n\nSee [next](p${(i + 1) % 10}.md).\n`);
    commit('pages');
    const tree = String((await call('trees.connect', { folder: repo })).id);
    put('p1.md', '# Page 1\n\nChanged here.\n');
    commit('here');
    expect(await buildSource(engine, tree)).toMatchObject({ whole: false, fromMemo: true });
    // Another process builds the next commit: this process's memo is of a build no longer stored.
    put('p2.md', '# Page 2 elsewhere\n\nChanged there.\n');
    commit('there');
    const other = ws.open();
    expect(await buildSource(other, tree)).toMatchObject({ whole: false, fromMemo: false });
    await other.close();
    put('p3.md', '# Page 3\n\nChanged here again, see [p2](p2.md).\n');
    commit('here again');
    expect(await buildSource(engine, tree)).toMatchObject({ whole: false, fromMemo: false });
    const incremental = storedRows(tree);
    expect(await buildSource(engine, tree, { rebuild: true })).toMatchObject({ whole: true });
    expect(storedRows(tree)).toEqual(incremental);
    // The whole build left a memo of its own: the next build starts from it.
    put('p4.md', '# Page 4\n\nOnce more.\n');
    commit('once more');
    expect(await buildSource(engine, tree)).toMatchObject({ whole: false, fromMemo: true });
  });
});
