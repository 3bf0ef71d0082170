/**
 * Hostile repositories on `brain tree` (docs/TREES.md [T1], [T2], [T9]): a committed symbolic link
 * is no document (its blob is the path it points at, so a Git repository and the same plain
 * folder agree), and a file whose name holds `#` reads and has backlinks like any other.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { callTool, mcpAgent } from './mcp-agent.ts';

let ws: CliWorkspace;
const clients: Client[] = [];

beforeEach(() => {
  ws = cliWorkspace('brain-explore-trees-');
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  ws.remove();
});

/** `git add -A` and a commit, as a fixed author. */
function commitAll(repo: string, message: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args]);
  git('add', '-A');
  git('commit', '-q', '-m', message);
}

function gitRepo(): string {
  const repo = join(ws.root, 'repo');
  mkdirSync(join(repo, 'docs'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args]);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(ws.root, 'outside.md'), '# Outside\n\nNot in the repository.\n');
  writeFileSync(join(repo, 'README.md'), '# Handbook\n\nSee [the plan](docs/a%23b.md).\n');
  writeFileSync(join(repo, 'docs', 'a#b.md'), '# Plan\n\nThe plan is to ship.\n');
  symlinkSync(join(ws.root, 'outside.md'), join(repo, 'docs', 'out.md'));
  symlinkSync('/etc/passwd', join(repo, 'docs', 'passwd.md'));
  git('add', '-A');
  git('commit', '-q', '-m', 'init');
  return repo;
}

type Show = { children: { id: string }[] };

describe('brain tree on a hostile repository', () => {
  it('[T2] leaves committed symbolic links out, as a plain folder does', async () => {
    const repo = gitRepo();
    const connected = await ws.brainJson<{ counts: { documents: number } }>('tree', 'connect', repo);
    expect(connected.counts.documents).toBe(2);
    const docs = await ws.brainJson<Show>('tree', 'show', 'docs/');
    expect(docs.children.map((c) => c.id)).toEqual(['docs/a#b.md']);
    const read = await ws.brain('tree', 'read', 'docs/passwd.md');
    expect(read.code).toBe(1);
    expect(read.stderr).toContain('error[not-found]: No node docs/passwd.md');
    const files = await ws.brainJson<{ rows: { label: string }[] }>('files');
    expect(files.rows.map((r) => r.label).sort()).toEqual(['README.md', 'a#b.md']);
    // A link committed later is no document that changed either.
    symlinkSync('/etc/hostname', join(repo, 'docs', 'host.md'));
    commitAll(repo, 'link');
    expect((await ws.brain('tree', 'rebuild')).code).toBe(0);
    const changes = await ws.brainJson<{ documents: unknown[] }>('tree', 'changes', '--since', 'HEAD~1');
    expect(changes.documents).toEqual([]);
  });

  it('[T9] reads a document whose file name holds "#", and finds what links to it', async () => {
    await ws.brainJson('tree', 'connect', gitRepo());
    const read = await ws.brainJson<{ text: string; citation: { path: string } }>(
      'tree',
      'read',
      'docs/a#b.md',
    );
    expect(read.text).toContain('The plan is to ship.');
    expect(read.citation.path).toBe('docs/a#b.md');
    const back = await ws.brainJson<{ total: number }>('tree', 'backlinks', 'docs/a#b.md');
    expect(back.total).toBe(1);
  });

  it('prints the control characters of a file name or heading as escapes, never to the terminal', async () => {
    const repo = gitRepo();
    const name = 'evil\u001b[2Jname.md';
    writeFileSync(join(repo, name), '# Evil \u001b]0;pwned\u0007 title\n\nText.\n');
    commitAll(repo, 'evil');
    await ws.brainJson('tree', 'connect', repo);
    const show = await ws.brainText('tree', 'show');
    expect(show).not.toMatch(/[^\P{Cc}\n]/u);
    expect(show).toContain('evil\\u001b[2Jname.md  Evil \\u001b]0;pwned\\u0007 title');
    const read = await ws.brainText('tree', 'read', name);
    expect(read).not.toMatch(/[^\P{Cc}\n]/u);
    const missing = await ws.brain('tree', 'read', 'nope\u001b[2J.md');
    expect(missing.stderr).toContain('No node nope\\u001b[2J.md');
  });

  it("[T3] refuses moving a repository's document out of the tree's scope, and moves nothing", async () => {
    await ws.brainJson('tree', 'connect', gitRepo());
    const files = await ws.brainJson<{ rows: { id: string; label: string; scope: string }[] }>('files');
    const doc = files.rows.find((r) => r.label === 'README.md');
    const out = await ws.brain('move', doc?.id ?? '', '--scope', 'user:tester', '--yes');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('README.md comes from a connected repository and keeps its scope');
    const after = await ws.brainJson<{ rows: { id: string; scope: string }[] }>('files');
    expect(after.rows.find((r) => r.id === doc?.id)?.scope).toBe('org');
  });

  it('cuts a line longer than a whole answer, so no read passes its cap (command line and MCP)', async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, 'long.md'), `# Long\n\n${'word '.repeat(60_000)}\n\nAfter.\n`);
    commitAll(repo, 'long');
    await ws.brainJson('tree', 'connect', repo);
    type Read = { text: string; truncated: boolean; nextLine: number | null; citation: { lineEnd: number } };
    const cli = await ws.brainJson<Read>('tree', 'read', 'long.md', '--from-line', '3');
    expect(cli.text.length).toBeLessThanOrEqual(200_000);
    expect(cli).toMatchObject({ truncated: true, nextLine: 4, citation: { lineEnd: 3 } });
    const client = await mcpAgent(ws, 'reader', clients);
    const agent = await callTool<Read>(client, 'brain_tree_read', { node: 'long.md', fromLine: 3 });
    expect(agent.text.length).toBeLessThanOrEqual(24_000);
    expect(agent).toMatchObject({ truncated: true, nextLine: 4 });
    const text = await ws.brainText('tree', 'read', 'long.md', '--from-line', '3');
    expect(text).toContain('… cut here: --from-line 4');
    // brain_read of the same document as a file: the long line is cut, and reading goes on after it.
    const files = await ws.brainJson<{ rows: { id: string; label: string }[] }>('files');
    const id = files.rows.find((r) => r.label === 'long.md')?.id;
    const read = await client.callTool({ name: 'brain_read', arguments: { id, from_line: 3 } });
    const body = (read.content as { text: string }[])[0]?.text ?? '';
    expect(body.length).toBeLessThanOrEqual(50_000);
    expect(body).toContain('word word');
    expect(body).toContain('… line 3 is cut at 50000 characters: read from_line 4 to_line');
  });
});

describe('brain tree connect on a folder whose .git is a file', () => {
  it('[T1] refuses a .git file that points at another repository, naming it, and connects nothing', async () => {
    const repo = gitRepo();
    const folder = join(ws.root, 'innocent');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.md'), '# Notes\n\nOnly these.\n');
    writeFileSync(join(folder, '.git'), `gitdir: ${join(repo, '.git')}\n`);
    const out = await ws.brain('tree', 'connect', folder);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`error[refused]: ${join(folder, '.git')} points at ${join(repo, '.git')}`);
    expect((await ws.brainJson<{ trees: unknown[] }>('tree', 'list')).trees).toEqual([]);
    expect((await ws.brainJson<{ rows: unknown[] }>('files')).rows).toEqual([]);
    // Nor does a connected repository whose .git is swapped for such a file read the other one.
    const own = join(ws.root, 'own');
    mkdirSync(own);
    writeFileSync(join(own, 'own.md'), '# Own\n\nMine.\n');
    execFileSync('git', ['-C', own, 'init', '-q', '-b', 'main']);
    commitAll(own, 'own');
    expect((await ws.brain('tree', 'connect', own)).code).toBe(0);
    rmSync(join(own, '.git'), { recursive: true, force: true });
    writeFileSync(join(own, '.git'), `gitdir: ${join(repo, '.git')}\n`);
    const rebuilt = await ws.brain('tree', 'rebuild');
    expect(rebuilt.stdout + rebuilt.stderr).toContain(`${join(own, '.git')} points at ${join(repo, '.git')}`);
    const files = await ws.brainJson<{ rows: { label: string }[] }>('files');
    expect(files.rows.map((r) => r.label)).toEqual(['own.md']);
  });

  it('[T1] still connects a linked work tree (git worktree add), reading its own branch', async () => {
    const repo = gitRepo();
    const linked = join(ws.root, 'linked');
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', '-b', 'side', linked]);
    writeFileSync(join(linked, 'side.md'), '# Side\n\nOnly on the side branch.\n');
    commitAll(linked, 'side');
    const connected = await ws.brainJson<{ root: string; branch: string; counts: { documents: number } }>(
      'tree',
      'connect',
      linked,
    );
    expect([connected.root, connected.branch, connected.counts.documents]).toEqual([linked, 'side', 3]);
  });
});

describe('a file name that holds a line break', () => {
  it('prints on one line, escaped, in brain tree show, brain files and brain add', async () => {
    const folder = join(ws.root, 'folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a\nb.md'), '# Line\n\nA page.\n');
    writeFileSync(join(folder, 'c\r\nd.md'), '# Crlf\n\nAnother page.\n');
    expect((await ws.brain('tree', 'connect', folder)).code).toBe(0);
    const show = await ws.brainText('tree', 'show');
    expect(show).toContain('· a\\u000ab.md  Line\n');
    expect(show).toContain('· c\\u000d\\u000ad.md  Crlf\n');
    const files = await ws.brainText('files');
    expect(files).toContain('folder/a\\u000ab.md\n');
    expect(files).toContain('folder/c\\u000d\\u000ad.md\n');
    const added = await ws.brainText('add', join(folder, 'a\nb.md'));
    expect(added).toContain('a\\u000ab.md\n');
    for (const out of [show, files, added])
      expect(out.split('\n').filter((l) => /^b\.md|^d\.md/.test(l))).toEqual([]);
  });
});
