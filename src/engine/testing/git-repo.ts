/**
 * A real Git repository for tests of connected repositories (docs/TREES.md): made with the `git`
 * program in a folder the test owns, with files written and committed as the test says.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

export type GitRepo = {
  dir: string;
  git(...args: string[]): string;
  /** Writes a file (its folders made as needed). */
  put(path: string, text: string): void;
  /** Commits everything; returns the new commit. */
  commit(message: string): string;
};

/** A repository at `dir` (made, and initialised on branch main unless `init` is false). */
export function gitRepo(dir: string, options: { init?: boolean } = {}): GitRepo {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
  mkdirSync(dir, { recursive: true });
  if (options.init !== false) git('init', '-q', '-b', 'main');
  return {
    dir,
    git,
    put(path, text) {
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
  };
}
