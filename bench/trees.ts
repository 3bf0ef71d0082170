/**
 * Repository trees (docs/TREES.md): a generated Git repository of 20,000 Markdown documents
 * (folders, sections, links, reference ids), connected and built whole, then built again after a
 * one-file commit (incremental), five times, beside the baselines of `git ls-files` plus reading every
 * blob (`git cat-file --batch`) and of `git diff-tree` plus reading the changed blob, measured in the
 * same run; then `tree`, `read` and `grep` latency.
 * Targets: whole <= 60 s, one-file incremental <= 1 s on this machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import { buildSource, connectSource } from '#engine/tree/sources.ts';
import { type Latency, latency, rng } from './util.ts';

export type TreesBenchResult = {
  documents: number;
  nodes: number;
  baselineMs: number;
  wholeMs: number;
  /** The median of the one-file builds, and the slowest. */
  incrementalMs: number;
  incrementalMaxMs: number;
  /** `git rev-parse` + `git diff-tree` + reading the changed blob: the least a reader of the change does. */
  incrementalBaselineMs: number;
  incrementalWasIncremental: boolean;
  incrementalFromMemo: boolean;
  tree: Latency;
  read: Latency;
  grep: Latency;
};

/** One-file commits built one after the other (the figure is their median). */
const ONE_FILE_BUILDS = 5;

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env: GIT_ENV, maxBuffer: 1 << 30 });
}

function page(i: number, rand: () => number, documents: number): string {
  const other = Math.floor(rand() * documents);
  return (
    `# Policy ${i}\n\nThis page states rule ${i} of the handbook and who owns it.\n\n` +
    `## RULE-P${i}-0001 Scope\n\nApplies to team ${i % 50}. See [policy ${other}](/d${other % 100}/p${other}.md#scope) and RULE-P${other}-0001.\n\n` +
    `## Details\n\n| Key | Meaning |\n|---|---|\n| K-${i} | value ${Math.floor(rand() * 1e6)} |\n\n` +
    `Word${i % 997} appears here with zebra${i % 13}.\n`
  );
}

export async function runTreesBench(options: {
  dir: string;
  documents: number;
  queries: number;
  log: (m: string) => void;
}): Promise<TreesBenchResult> {
  const { dir, documents, log } = options;
  const repo = join(dir, 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  const rand = rng(42);
  log(`trees: writing a repository of ${documents.toLocaleString('en-US')} documents…`);
  for (let i = 0; i < documents; i++) {
    const folder = join(repo, `d${i % 100}`);
    if (i < 100) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `p${i}.md`), page(i, rand, documents));
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'The handbook');

  // Baseline: what any reader of the commit must do at least, list the files and read every blob.
  let t = performance.now();
  const listed = git(repo, 'ls-files', '-s');
  const blobs = listed
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+/)[1])
    .join('\n');
  spawnSync('git', ['-C', repo, 'cat-file', '--batch'], { input: `${blobs}\n`, maxBuffer: 1 << 30 });
  const baselineMs = performance.now() - t;

  const engine = openAsLocalUser('bench', { home: join(dir, 'home'), modelDir: join(dir, 'no-model') });
  try {
    const call = (name: string, input: unknown) =>
      runCommand(memberContext(engine, 'agent'), name, input) as Promise<Record<string, unknown>>;
    // The tree build alone: connecting on the command line also indexes the documents for search.
    const source = await connectSource(engine, { folder: repo });
    t = performance.now();
    await buildSource(engine, source.id);
    const wholeMs = performance.now() - t;
    const nodes = (
      engine.db.prepare('SELECT COUNT(*) AS n FROM tree_nodes WHERE source_id = ?').get(source.id) as {
        n: number;
      }
    ).n;
    log(`trees: whole build ${Math.round(wholeMs)} ms (${nodes.toLocaleString('en-US')} nodes)`);

    // One-file commits, each built at once as a host does; the baseline is what any reader of the
    // change does at least: resolve the branch, diff the two commits and read the changed blob.
    const oneFile: number[] = [];
    const oneFileBaseline: number[] = [];
    let allIncremental = true;
    let allFromMemo = true;
    for (let k = 0; k < ONE_FILE_BUILDS; k++) {
      const i = 7 + k * 101;
      writeFileSync(join(repo, `d${i % 100}`, `p${i}.md`), `${page(i, rand, documents)}\nOne more line.\n`);
      const before = git(repo, 'rev-parse', 'HEAD').trim();
      git(repo, 'commit', '-q', '-am', `One change ${k}`);
      t = performance.now();
      const tip = git(repo, 'rev-parse', 'main').trim();
      const blob = git(repo, 'diff-tree', '-r', '--raw', '--no-commit-id', before, tip).split(/\s+/)[3] ?? '';
      spawnSync('git', ['-C', repo, 'cat-file', '--batch'], { input: `${blob}\n` });
      oneFileBaseline.push(performance.now() - t);
      t = performance.now();
      const step = await buildSource(engine, source.id);
      oneFile.push(performance.now() - t);
      allIncremental &&= !step.whole;
      allFromMemo &&= step.fromMemo;
      log(
        `trees: one-file build ${Math.round(oneFile.at(-1) ?? 0)} ms (${step.whole ? 'whole' : step.fromMemo ? 'incremental, from the memo' : 'incremental'})`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const incrementalMs = median(oneFile);

    const timed = async (fn: (i: number) => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < options.queries; i++) {
        const s = performance.now();
        await fn(i);
        samples.push(performance.now() - s);
      }
      return latency(samples);
    };
    const tree = await timed((i) => call('trees.tree', { node: i % 2 ? '/' : `d${i % 100}/`, limit: 100 }));
    const read = await timed((i) => call('trees.read', { node: `d${i % 100}/p${i}.md` }));
    const grep = await timed((i) =>
      call('trees.grep', { text: `zebra${i % 13} word${i % 997}`, under: `d${i % 100}/` }),
    );
    return {
      documents,
      nodes,
      baselineMs: Math.round(baselineMs),
      wholeMs: Math.round(wholeMs),
      incrementalMs: Math.round(incrementalMs),
      incrementalMaxMs: Math.round(Math.max(...oneFile)),
      incrementalBaselineMs: Math.round(median(oneFileBaseline) * 10) / 10,
      incrementalWasIncremental: allIncremental,
      incrementalFromMemo: allFromMemo,
      tree,
      read,
      grep,
    };
  } finally {
    await engine.close();
  }
}
