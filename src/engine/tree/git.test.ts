import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitRepo, gitRepo } from '../testing/git-repo.ts';
import { diffTree, historySince, listFiles, readHistory } from './git.ts';

let dir: string;
let r: GitRepo;
/** A short window, so a change falls out of it after a few commits. */
const LIMITS = [4, 2];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brain-git-'));
  r = gitRepo(join(dir, 'repo'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs git with the author and committer dated as given (the walk orders by the committer's). */
function gitAt(date: string, ...args: string[]): void {
  execFileSync('git', ['-C', r.dir, ...args], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
}

/** A commit dated as given, so the walk's order is known. */
function commitAt(message: string, date: string): string {
  r.git('add', '-A');
  gitAt(date, 'commit', '-q', '-m', message);
  return r.git('rev-parse', 'HEAD').trim();
}

describe('[T15] the history from the one a build read before', () => {
  it('is the history a whole read gives, with the paths whose last change moved, as changes fall out of the window', async () => {
    const commits: string[] = [];
    r.put('old.md', 'old\n');
    r.put('a.md', 'a\n');
    commits.push(commitAt('start', '2024-01-01T00:00:00Z'));
    for (let i = 1; i <= 7; i++) {
      r.put(i % 2 ? 'a.md' : `f${i}.md`, `${i}\n`);
      commits.push(commitAt(`step ${i}`, `2024-01-0${1 + i}T00:00:00Z`));
    }
    for (const [from, to] of [
      [2, 3],
      [3, 6],
      [4, 7],
      [0, 3],
    ] as const) {
      const old = await readHistory(r.dir, commits[from] as string, LIMITS);
      const since = await historySince(r.dir, old!, commits[from] as string, commits[to] as string, LIMITS);
      const whole = await readHistory(r.dir, commits[to] as string, LIMITS);
      expect(since?.history, `${from} -> ${to}`).toEqual(whole);
      for (const [path, c] of whole!.changes)
        if (old!.changes.get(path)?.commit !== c.commit) expect(since?.changed.has(path), path).toBe(true);
      for (const path of old!.changes.keys())
        if (!whole!.changes.has(path)) expect(since?.changed.has(path), path).toBe(true);
    }
    // old.md's only change falls out of the window of four commits.
    expect((await readHistory(r.dir, commits[7] as string, LIMITS))?.changes.has('old.md')).toBe(false);
  });

  it('is refused when the walks do not line up: a merge of older work, or a commit that is no descendant', async () => {
    r.put('a.md', 'a\n');
    const base = commitAt('base', '2024-01-10T00:00:00Z');
    r.put('b.md', 'b\n');
    const main = commitAt('main', '2024-01-12T00:00:00Z');
    r.git('checkout', '-q', '-b', 'side', base);
    r.put('c.md', 'c\n');
    // Dated before the main commit: the walk of the merge lists it after the main commit.
    const side = commitAt('side', '2024-01-11T00:00:00Z');
    r.git('checkout', '-q', 'main');
    gitAt('2024-01-13T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge', 'side');
    const merge = r.git('rev-parse', 'HEAD').trim();
    const old = await readHistory(r.dir, main, LIMITS);
    // The walk of the merge is merge, main, side, base: the new commits (merge, side) are not its first two.
    expect((await readHistory(r.dir, merge, LIMITS))?.commits).toEqual([merge, main, side, base]);
    expect(await historySince(r.dir, old!, main, merge, LIMITS)).toBeNull();
    const fromSide = await readHistory(r.dir, side, LIMITS);
    expect(await historySince(r.dir, fromSide!, side, main, LIMITS)).toBeNull();
    // A walk that had to be the shorter one is not built on.
    expect(await historySince(r.dir, { ...old!, limit: 2 }, main, merge, LIMITS)).toBeNull();
  });

  it('diffTree names what listFiles differs by', async () => {
    r.put('a.md', 'a\n');
    r.put('b.md', 'b\n');
    r.put('code/x.ts', 'x\n');
    const one = commitAt('one', '2024-01-01T00:00:00Z');
    r.put('a.md', 'a2\n');
    r.git('rm', '-q', 'b.md');
    r.git('mv', 'code/x.ts', 'code/y.ts');
    r.put('new file.md', 'n\n');
    const two = commitAt('two', '2024-01-02T00:00:00Z');
    const before = new Map((await listFiles(r.dir, one)).map((e) => [e.path, e.blob]));
    for (const d of await diffTree(r.dir, one, two)) {
      if (d.blob) before.set(d.path, d.blob);
      else before.delete(d.path);
    }
    const after = new Map((await listFiles(r.dir, two)).map((e) => [e.path, e.blob]));
    expect(before).toEqual(after);
  });
});
