/**
 * Repository trees over real repositories (docs/TREES.md): the Basecamp handbook's Git bundle in
 * ../shared/corpus (hundreds of commits with renames and deletions), cloned here, and the ADR
 * corpus as a plain folder (non-ASCII paths). Each document's `changed` is what `git log -1 --
 * <path>` says; a tree is built at several commits of the history and read at each.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import { buildSource } from '#engine/tree/sources.ts';

const SHARED = resolve(process.env.BRAIN_SHARED_DIR ?? '../shared');
const BUNDLE = join(SHARED, 'corpus', 'basecamp-handbook.git.bundle');
const ADR = join(SHARED, 'corpus', 'architecture-decision-record');

let root: string;
let repo: string;
let engine: Engine;

const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
const call = (name: string, input: unknown) =>
  runCommand(memberContext(engine, 'cli'), name, input) as Promise<Record<string, unknown>>;

type Node = {
  id: string;
  kind: string;
  changed: { commit: string; subject: string } | null;
  children: number;
};

/** Every node under `node`, breadth first, through trees.tree. */
async function allNodes(tree: string, node = '/'): Promise<Node[]> {
  const out: Node[] = [];
  const queue = [node];
  while (queue.length) {
    const id = queue.shift() as string;
    for (let offset: number | null = 0; offset !== null; ) {
      const page = (await call('trees.tree', { tree, node: id, offset, limit: 200 })) as {
        children: Node[];
        nextOffset: number | null;
      };
      for (const c of page.children) {
        out.push(c);
        if (c.children > 0) queue.push(c.id);
      }
      offset = page.nextOffset;
    }
  }
  return out;
}

beforeAll(() => {
  if (!existsSync(BUNDLE))
    throw new Error(`The handbook bundle is missing: ${BUNDLE} (set BRAIN_SHARED_DIR).`);
  root = mkdtempSync(join(tmpdir(), 'brain-trees-real-'));
  repo = join(root, 'handbook');
  execFileSync('git', ['clone', '-q', BUNDLE, repo]);
  engine = openAsLocalUser('tester', { home: join(root, 'home'), modelDir: join(root, 'no-model') });
});
afterAll(async () => {
  await engine?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('[T10] [T11] trees of real repositories', () => {
  it("each document's last change is git log -1 of its path, and folders carry the latest", async () => {
    const source = await call('trees.connect', { folder: repo });
    expect(source.state).toBe('ready');
    const docs = (await allNodes(String(source.id))).filter((n) => n.kind === 'document');
    expect(docs.length).toBeGreaterThan(10);
    for (const d of docs) {
      const expected = git('log', '-1', '--format=%H', '--', d.id).trim();
      expect(d.changed?.commit, d.id).toBe(expected);
    }
  });

  it('builds at older commits of the history and reads each at its own commit', async () => {
    const commits = git('rev-list', '--first-parent', '-n', '60', 'HEAD').trim().split('\n');
    // A branch of its own, moved back and forth through the history: the tree follows it.
    git('branch', 'followed', commits[59] as string);
    const tree = String((await call('trees.connect', { folder: repo, branch: 'followed' })).id);
    for (const commit of [commits[59], commits[30], commits[0]]) {
      git('branch', '-f', 'followed', commit as string);
      const built = await call('trees.rebuild', { tree });
      expect(built).toMatchObject({ state: 'ready', indexedCommit: commit });
      const files = git('ls-tree', '-r', '--name-only', commit as string)
        .split('\n')
        .filter((p) => /\.md$/i.test(p));
      const docs = (await allNodes(tree)).filter((n) => n.kind === 'document').map((n) => n.id);
      expect(docs.sort()).toEqual(files.sort());
      const first = docs[0] as string;
      const read = (await call('trees.read', { tree, node: first })) as {
        text: string;
        citation: { commit: string };
      };
      expect(read.citation.commit).toBe(commit);
      expect(read.text).toBe(
        git('show', `${commit}:${first}`)
          .replace(/\r?\n$/, '')
          .split(/\r?\n/)
          .join('\n'),
      );
    }
  });

  it('changes since an older commit are what git diff --numstat says', async () => {
    const tree = String((await call('trees.connect', { folder: repo, branch: 'master' })).id);
    await call('trees.rebuild', { tree });
    const older = git('rev-list', '-n', '80', 'HEAD').trim().split('\n').at(-1) as string;
    const out = (await call('trees.changes', { tree, since: older.slice(0, 10) })) as {
      documents: { path: string; status: string; linesAdded: number | null; linesRemoved: number | null }[];
      nodes: { node: string; path: string }[];
    };
    const numstat = git('diff', '--numstat', '-M', older, 'HEAD')
      .trim()
      .split('\n')
      .filter((l) => /\.md$/i.test(l) || /\.md\}?$/i.test(l))
      .map((l) => l.split('\t'));
    expect(out.documents.length).toBe(numstat.length);
    for (const d of out.documents) {
      const row = numstat.find((r) => (r[2] ?? '').endsWith(d.path) || (r[2] ?? '') === d.path);
      expect(row, d.path).toBeDefined();
      expect([d.linesAdded, d.linesRemoved]).toEqual([Number(row?.[0]), Number(row?.[1])]);
    }
    expect(out.nodes.length).toBeGreaterThan(0);
    for (const n of out.nodes) expect(out.documents.map((d) => d.path)).toContain(n.path);
    await expect(call('trees.changes', { tree, since: 'deadbeefdeadbeef' })).rejects.toMatchObject({
      code: 'not-found',
    });
  });

  it('[T4] an incremental build over each of the last 20 commits stores what a whole build does', async () => {
    const commits = git('rev-list', '--first-parent', '-n', '21', 'HEAD').trim().split('\n').reverse();
    git('branch', '-f', 'stepping', commits[0] as string);
    const tree = String((await call('trees.connect', { folder: repo, branch: 'stepping' })).id);
    await call('trees.rebuild', { tree });
    const rows = () =>
      ['tree_nodes ORDER BY id', 'tree_links ORDER BY from_id, ordinal', 'tree_broken ORDER BY ordinal'].map(
        (t) =>
          engine.db.prepare(`SELECT * FROM ${t.replace(' ORDER', ' WHERE source_id = ? ORDER')}`).all(tree),
      );
    let incremental = 0;
    for (const commit of commits.slice(1)) {
      git('branch', '-f', 'stepping', commit);
      const step = await buildSource(engine, tree);
      if (!step.whole) incremental++;
      const after = rows();
      await buildSource(engine, tree, { rebuild: true });
      expect(rows(), commit).toEqual(after);
    }
    expect(incremental).toBeGreaterThan(10);
  });

  it('reads the ADR corpus as a plain folder, non-ASCII paths included', async () => {
    const source = await call('trees.connect', { folder: ADR });
    expect(source).toMatchObject({ state: 'ready', isGit: false });
    const nodes = await allNodes(String(source.id));
    const docs = nodes.filter((n) => n.kind === 'document');
    expect(docs.length).toBeGreaterThan(200);
    expect(docs.some((d) => [...d.id].some((c) => c.charCodeAt(0) > 127))).toBe(true);
    for (const n of nodes) expect(n.changed === null || n.kind === 'folder' || n.kind === 'root').toBe(true);
  });
});
