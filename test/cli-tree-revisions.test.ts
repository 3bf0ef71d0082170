/**
 * `brain tree changes --since` takes any name Git gives a commit (HEAD~1, a branch, a tag, a full or
 * abbreviated hash), resolved in the repository (src/engine/tree/git.ts); a name that is none says
 * what to give. `brain tree show --depth` out of range says the range.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
let repo: string;

function git(...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
    },
  });
}

beforeEach(async () => {
  ws = cliWorkspace('brain-cli-tree-revisions-');
  repo = join(ws.files, 'handbook');
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'leave.md'), '# Leave\n\n## Sabbatical\n\nSix weeks after five years.\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'Leave');
  writeFileSync(join(repo, 'travel.md'), '# Travel\n\n## Trains\n\nSecond class.\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'Travel');
  git('tag', 'v1', 'HEAD~1');
  expect((await ws.brain('tree', 'connect', repo)).code).toBe(0);
}, 60_000);
afterEach(() => ws.remove());

type Changes = { since: string; documents: { path: string; status: string }[] };

describe('[T11] brain tree changes --since a revision', () => {
  it('resolves HEAD~1, a branch and a tag in the repository', async () => {
    const first = git('rev-parse', 'HEAD~1').trim();
    const byRev = await ws.brainJson<Changes>('tree', 'changes', '--since', 'HEAD~1');
    expect(byRev.since).toBe(first);
    expect(byRev.documents).toMatchObject([{ path: 'travel.md', status: 'added' }]);
    expect((await ws.brainJson<Changes>('tree', 'changes', '--since', 'v1')).since).toBe(first);
    expect((await ws.brainJson<Changes>('tree', 'changes', '--since', 'main')).documents).toEqual([]);
    expect((await ws.brainJson<Changes>('tree', 'changes', '--since', first.slice(0, 8))).since).toBe(first);
    const text = await ws.brainText('tree', 'changes', '--since', 'HEAD~1');
    expect(text).toContain('added    travel.md');
  });

  it('says what to give for a name that is no commit, and takes no option for one', async () => {
    for (const since of ['HEAD~9', 'no-such-branch', '--output=/tmp/x']) {
      const r = await ws.brain('tree', 'changes', `--since=${since}`);
      expect(r.code, since).not.toBe(0);
      expect(r.stderr, since).toContain(
        `no commit ${since} in ${repo}: give a commit hash or a name such as HEAD~1`,
      );
    }
  });
});

describe('brain tree show --depth', () => {
  it('says the allowed range', async () => {
    for (const depth of ['0', '3', '1.5']) {
      const r = await ws.brain('tree', 'show', '--depth', depth);
      expect(r.code, depth).not.toBe(0);
      expect(r.stderr, depth).toContain('depth must be a whole number from 1 to 2');
    }
    expect((await ws.brain('tree', 'show', '--depth', '2')).code).toBe(0);
  });
});
