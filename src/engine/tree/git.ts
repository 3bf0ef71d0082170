/**
 * Reading a connected repository with the `git` program (docs/TREES.md): it is on every machine
 * that has a repository, reads the largest histories fast, and its output is what a Git viewer
 * shows, so a citation's lines open the same there. A folder that is not a repository (or a
 * machine without `git`) is read from disk instead, with no history: `changed` is unknown.
 */
import { execFile, spawn } from 'node:child_process';
import { lstat, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Change } from './types.ts';

const run = promisify(execFile);
/** Ample for ls-tree and log output of 20,000 documents and 10,000 commits. */
const MAX_OUTPUT = 512 * 1024 * 1024;
/** How far back one walk of the history looks for each document's last change (the seed's numbers). */
const HISTORY_COMMITS = [10_000, 1_000] as const;

async function git(root: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', root, ...args], {
    maxBuffer: MAX_OUTPUT,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
  });
  return stdout;
}

/** The repository's top folder when `folder` is (in) a Git work tree and `git` runs here; else null. */
export async function gitTopLevel(folder: string): Promise<string | null> {
  try {
    return (await git(folder, ['rev-parse', '--show-toplevel'])).trim() || null;
  } catch {
    return null;
  }
}

const samePath = async (a: string, b: string) =>
  (await realpath(a).catch(() => resolve(a))) === (await realpath(b).catch(() => resolve(b)));

/**
 * Why Git, asked about `folder`, would read a repository that is not its work tree's own, or null
 * when it would not (docs/TREES.md [T1]). A `.git` FILE (`gitdir: <path>`) makes Git read the
 * repository it names as this folder's: a linked work tree's (`git worktree add`: that git dir
 * names the file back in its own `gitdir`) or a submodule's (its `core.worktree` is this folder)
 * belongs here; any other is someone else's history, committed elsewhere, which the tree would
 * show as this folder's. `top` is the work tree Git found (`gitTopLevel`).
 */
export async function foreignGitDir(folder: string, top: string): Promise<string | null> {
  const inside = relative(await realpath(top).catch(() => top), await realpath(folder).catch(() => folder));
  if (inside.startsWith('..') || isAbsolute(inside))
    return `Git reads ${folder} as part of ${top}, the work tree its .git names; connect ${top} itself`;
  const dotGit = join(top, '.git');
  if (!(await lstat(dotGit).catch(() => null))?.isFile()) return null;
  const gitDir = (await git(top, ['rev-parse', '--absolute-git-dir']).catch(() => '')).trim();
  if (!gitDir) return `${dotGit} names no repository Git can read`;
  const back = await readFile(join(gitDir, 'gitdir'), 'utf8').catch(() => null);
  if (back !== null && (await samePath(resolve(gitDir, back.trim()), dotGit))) return null;
  const worktree = (await git(top, ['config', '--get', 'core.worktree']).catch(() => '')).trim();
  if (worktree && (await samePath(resolve(gitDir, worktree), top))) return null;
  return `${dotGit} points at ${gitDir}, a repository whose work tree is not this folder (not a linked work tree or submodule of it); connect that repository itself`;
}

/**
 * Why `name` is not a branch to follow (docs/TREES.md [T1]), or null when it is one: a local or a
 * remote-tracking branch, named as `git branch -a` names it. A tag, a commit or a revision such as
 * `HEAD~1` names no branch: a tree follows its branch as it moves.
 */
export async function branchProblem(root: string, name: string): Promise<string | null> {
  const ok = (args: string[]) =>
    git(root, args).then(
      () => true,
      () => false,
    );
  if (await ok(['check-ref-format', '--branch', name])) {
    for (const ref of [`refs/heads/${name}`, `refs/remotes/${name}`])
      if (await ok(['show-ref', '--verify', '--quiet', ref])) return null;
  }
  return `${JSON.stringify(name)} is not a branch of ${root}: a tree follows a branch as it moves, not a tag, a commit or a revision such as HEAD~1 (git branch -a lists the branches)`;
}

/**
 * The commit the branch a tree follows points at (HEAD when null), or null when there is none: the
 * branch's own ref first (a local, then a remote-tracking one), so a tag of the same name does not
 * stand in for it (Git's own lookup of a bare name prefers the tag); a name stored before branches
 * were checked ([T1]) is looked up as Git would.
 */
export async function branchCommit(root: string, branch: string | null): Promise<string | null> {
  if (branch !== null && !branch.startsWith('-')) {
    for (const ref of [`refs/heads/${branch}`, `refs/remotes/${branch}`]) {
      const commit = await resolveCommit(root, ref);
      if (commit) return commit;
    }
  }
  return resolveCommit(root, branch);
}

/** The commit a revision (or HEAD) names, or null when it names none. */
async function resolveCommit(root: string, branch: string | null): Promise<string | null> {
  if (branch?.startsWith('-')) return null; // read as an option, not a name
  try {
    const out = await git(root, ['rev-parse', '--verify', '--quiet', `${branch ?? 'HEAD'}^{commit}`]);
    return out.trim() || null;
  } catch {
    return null;
  }
}

/** The branch HEAD is on (null when detached). */
export async function currentBranch(root: string): Promise<string | null> {
  try {
    const out = (await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
    return out || null;
  } catch {
    return null;
  }
}

/** Git's mode for a symbolic link. */
const SYMLINK_MODE = '120000';

export type GitEntry = { path: string; blob: string; size: number };

/** Every file of a commit with its blob id and size (`git ls-tree -r -l -z`). */
export async function listFiles(root: string, commit: string): Promise<GitEntry[]> {
  const out = await git(root, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  const entries: GitEntry[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, blob, size] = record.slice(0, tab).split(/\s+/);
    // A symbolic link's blob is its target's path, not a document (a folder skips links too).
    if (type !== 'blob' || !blob || mode === SYMLINK_MODE) continue;
    entries.push({ path: record.slice(tab + 1), blob, size: Number(size) || 0 });
  }
  return entries;
}

/** The bytes of many blobs through one `git cat-file --batch`, by blob id. */
export function readBlobs(root: string, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', root, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = new Map<string, Buffer>();
    let buffer = Buffer.alloc(0);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const nl = buffer.indexOf(10);
        if (nl < 0) return;
        const header = buffer.subarray(0, nl).toString();
        const [id, type, size] = header.split(' ');
        if (type === 'missing') {
          buffer = buffer.subarray(nl + 1);
          continue;
        }
        const length = Number(size);
        if (buffer.length < nl + 1 + length + 1) return;
        out.set(id ?? '', Buffer.from(buffer.subarray(nl + 1, nl + 1 + length)));
        buffer = buffer.subarray(nl + 1 + length + 1);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`git cat-file failed: ${stderr.trim() || `exit ${code}`}`));
    });
    child.stdin.end(`${blobs.join('\n')}\n`);
  });
}

/** The last changes one walk of the history found: the walk's commits, newest first, and each path's last change. */
export type History = {
  /** How many commits the walk was allowed (10,000, or 1,000 when that could not be read). */
  limit: number;
  commits: string[];
  changes: Map<string, Change>;
};

const LOG_FORMAT = '--format=%x01%H%x02%aI%x02%s';

/** The commits of `git log` output in this file's format, in order, each with the paths it changed. */
function parseLog(out: string): { change: Change; files: string[] }[] {
  const commits: { change: Change; files: string[] }[] = [];
  for (const block of out.split('\x01')) {
    if (!block) continue;
    const [head, ...rest] = block.split('\0');
    const [hash, date, subject] = (head ?? '').split('\x02');
    if (!hash) continue;
    const files = [(head ?? '').split('\n').slice(1).join(''), ...rest]
      .map((raw) => raw.replace(/^\n+/, ''))
      .filter((path) => path !== '');
    const change = {
      commit: hash.trim(),
      date: (date ?? '').trim(),
      subject: (subject ?? '').split('\n')[0] ?? '',
    };
    commits.push({ change, files });
  }
  return commits;
}

/**
 * Each path's last change up to `commit`, from one walk of the history: the last 10,000 commits,
 * or the last 1,000 when that cannot be read; null when neither can (the build goes on without).
 * Renames are not followed (a moved file's last change is its move), as `git log -1 -- <path>`.
 */
export async function readHistory(
  root: string,
  commit: string,
  limits: readonly number[] = HISTORY_COMMITS,
): Promise<History | null> {
  for (const n of limits) {
    try {
      const out = await git(root, ['log', `-n${n}`, '--no-renames', '--name-only', '-z', LOG_FORMAT, commit]);
      const changes = new Map<string, Change>();
      const commits: string[] = [];
      for (const { change, files } of parseLog(out)) {
        commits.push(change.commit);
        for (const path of files) if (!changes.has(path)) changes.set(path, change);
      }
      return { limit: n, commits, changes };
    } catch {
      // too large to read at once: try the shorter walk
    }
  }
  return null;
}

/**
 * The history a whole build of `to` reads, from the one read at `from` (docs/TREES.md [T15]):
 * the walk of `to` must be the commits since `from` followed by the walk of `from` (cut at the
 * same limit), which also proves `from` an ancestor of `to`. Then only the new commits are read
 * with their files; a path keeps its last change unless a new commit changed it or that change
 * fell out of the window. Null when the walks do not line up that way (the caller reads it
 * whole), or when the walk of `from` was the shorter one.
 */
export async function historySince(
  root: string,
  old: History,
  from: string,
  to: string,
  limits: readonly number[] = HISTORY_COMMITS,
): Promise<{ history: History; changed: Set<string> } | null> {
  if (old.limit !== limits[0] || old.commits[0] !== from) return null;
  const [walk, added] = await Promise.all([
    git(root, ['log', `-n${old.limit}`, '--format=%H', to]),
    git(root, ['log', '--no-renames', '--name-only', '-z', LOG_FORMAT, `${from}..${to}`]),
  ]);
  const commits = walk.split('\n').filter((c) => c !== '');
  const fresh = parseLog(added);
  const k = fresh.length;
  if (k >= old.limit || commits.length !== Math.min(old.limit, k + old.commits.length)) return null;
  const ids = new Set(fresh.map((c) => c.change.commit));
  for (let i = 0; i < commits.length; i++) {
    if (i < k ? !ids.has(commits[i] as string) : commits[i] !== old.commits[i - k]) return null;
  }
  // A change older than the window's last `limit - k` commits of the old walk falls out of it.
  const kept = new Set(old.commits.slice(0, old.limit - k));
  const changes = new Map<string, Change>();
  const changed = new Set<string>();
  for (const [path, c] of old.changes) {
    if (kept.has(c.commit)) changes.set(path, c);
    else changed.add(path);
  }
  const byId = new Map(fresh.map((c) => [c.change.commit, c]));
  const seen = new Set<string>();
  for (const id of commits.slice(0, k)) {
    const c = byId.get(id) as { change: Change; files: string[] };
    for (const path of c.files) {
      if (seen.has(path)) continue;
      seen.add(path);
      changes.set(path, c.change);
      changed.add(path);
    }
  }
  return { history: { limit: old.limit, commits, changes }, changed };
}

/** A file that differs between two commits: its blob at the newer one, or null when it is gone there (or is no file). */
export type TreeDiffEntry = { path: string; blob: string | null };

/** The files that differ between two commits, by path (`git diff-tree -r --raw`, renames as a removal and an addition). */
export async function diffTree(root: string, from: string, to: string): Promise<TreeDiffEntry[]> {
  const out = await git(root, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', from, to]);
  const parts = out.split('\0');
  const entries: TreeDiffEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i] ?? '';
    const path = parts[i + 1] ?? '';
    if (!head.startsWith(':')) continue;
    // :<old mode> <new mode> <old blob> <new blob> <status>
    const [, mode, , blob] = head.slice(1).split(' ');
    // A file is a blob at the newer commit unless it is gone (mode 000000), a submodule (160000)
    // or a symbolic link (120000), which listFiles leaves out too.
    const isFile = mode !== undefined && mode !== '000000' && mode !== '160000' && mode !== SYMLINK_MODE;
    entries.push({ path, blob: isFile && blob ? blob : null });
  }
  return entries;
}

/** The size of each blob (`git cat-file --batch-check`), by blob id. */
export function blobSizes(root: string, blobs: readonly string[]): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    if (blobs.length === 0) {
      resolve(new Map());
      return;
    }
    const child = spawn('git', ['-C', root, 'cat-file', '--batch-check'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`git cat-file failed: ${stderr.trim() || `exit ${code}`}`));
        return;
      }
      const sizes = new Map<string, number>();
      for (const line of stdout.split('\n')) {
        const [id, type, size] = line.split(' ');
        if (id && type === 'blob') sizes.set(id, Number(size) || 0);
      }
      resolve(sizes);
    });
    child.stdin.end(`${blobs.join('\n')}\n`);
  });
}

/** Whether `older` is an ancestor of (or is) `newer`. */
export async function isAncestor(root: string, older: string, newer: string): Promise<boolean> {
  try {
    await git(root, ['merge-base', '--is-ancestor', older, newer]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The full id of the commit a revision names in the repository (a full or abbreviated id, HEAD~1, a
 * branch, a tag: `git rev-parse --verify <rev>^{commit}`), or null when it names none. A revision
 * starting with "-" would be read as an option: it names none.
 */
export async function commitOf(root: string, rev: string): Promise<string | null> {
  if (!rev || rev.startsWith('-')) return null;
  return resolveCommit(root, rev);
}

export type DiffEntry = {
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  path: string;
  oldPath: string | null;
  /** null when Git cannot count them (a binary file). */
  added: number | null;
  removed: number | null;
};

/** The files that differ between two commits, renames found, with lines added and removed. */
export async function diffFiles(root: string, from: string, to: string): Promise<DiffEntry[]> {
  const out = await git(root, ['diff', '--numstat', '-z', '-M', from, to]);
  const parts = out.split('\0');
  const entries: DiffEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i];
    if (!head) continue;
    const [a, r, path] = head.split('\t');
    const count = (v: string | undefined) => (v === undefined || v === '-' ? null : Number(v));
    if (path === '') {
      // A rename: the old and the new path follow, each ended by NUL.
      const oldPath = parts[i + 1] ?? '';
      const newPath = parts[i + 2] ?? '';
      i += 2;
      entries.push({ status: 'renamed', path: newPath, oldPath, added: count(a), removed: count(r) });
    } else {
      entries.push({
        status: 'modified',
        path: path ?? '',
        oldPath: null,
        added: count(a),
        removed: count(r),
      });
    }
  }
  // :<old mode> <new mode> <old blob> <new blob> <status>, then the path.
  const kinds = await git(root, ['diff', '--raw', '-z', '--no-renames', from, to]);
  const status = new Map<string, string>();
  // Paths that are symbolic links where they stand (the newer side, or the older for a deletion):
  // listFiles leaves them out of the tree, so they are no documents that changed either.
  const links = new Set<string>();
  const k = kinds.split('\0');
  for (let i = 0; i + 1 < k.length; i += 2) {
    const [oldMode, newMode, , , s] = (k[i] ?? '').slice(1).split(' ');
    const path = k[i + 1] ?? '';
    status.set(path, s ?? '');
    if ((s === 'D' ? oldMode : newMode) === SYMLINK_MODE) links.add(path);
  }
  for (const e of entries) {
    if (e.status !== 'modified') continue;
    const s = status.get(e.path);
    if (s === 'A') e.status = 'added';
    else if (s === 'D') e.status = 'deleted';
  }
  return entries.filter((e) => !links.has(e.path));
}

/**
 * The lines of the newer side of each file that changed from one commit to the other, by path,
 * from one `git diff -U0` over the whole commit range; null when Git cannot say (the older text
 * is not here).
 */
export async function changedLines(
  root: string,
  from: string,
  to: string,
): Promise<Map<string, { start: number; end: number }[]> | null> {
  let out: string;
  try {
    out = await git(root, ['-c', 'core.quotePath=false', 'diff', '-U0', '--no-color', '-M', from, to]);
  } catch {
    return null;
  }
  const byPath = new Map<string, { start: number; end: number }[]>();
  let current: { start: number; end: number }[] | null = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      current = target === '/dev/null' ? null : [];
      if (current) byPath.set(target.replace(/^b\//, ''), current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !current) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    // A pure deletion touches the line it sits after.
    current.push(
      count === 0
        ? { start: Math.max(1, start), end: Math.max(1, start) }
        : { start, end: start + count - 1 },
    );
  }
  return byPath;
}
