/**
 * The `brain` command as scripts use it: real processes on one real workspace, including a kill
 * in the middle of indexing and several processes at once.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';

const run = promisify(execFile);
const BRAIN = resolve('bin/brain.mjs');
let root: string;
let home: string;
let files: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'brain-cli-'));
  home = join(root, 'home');
  files = join(root, 'files');
  mkdirSync(files);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function brainAt(at: string, ...args: string[]): Promise<unknown> {
  const { stdout } = await run('node', [BRAIN, '--home', at, ...args, '--json'], {
    env: { ...process.env, BRAIN_MODEL_DIR: join(root, 'no-model'), BRAIN_USER: 'tester' },
  });
  return JSON.parse(stdout);
}

/** Sections the same files give when indexed calmly in a fresh workspace. */
async function referenceSections(dirs: string[]): Promise<number> {
  const ref = join(root, 'ref-home');
  for (const d of dirs) await brainAt(ref, 'add', d);
  await brainAt(ref, 'index');
  return inspect(ref).sections;
}

async function brain(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run('node', [BRAIN, '--home', home, ...args], {
      env: { ...process.env, BRAIN_MODEL_DIR: join(root, 'no-model'), BRAIN_USER: 'tester' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function brainJson<T>(...args: string[]): Promise<T> {
  const r = await brain(...args, '--json');
  if (r.code !== 0) throw new Error(`brain ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function writeCorpus(count: number): void {
  for (let i = 0; i < count; i++) {
    const parts = [`# Document ${i}`, ''];
    for (let h = 0; h < 12; h++) {
      parts.push(`## Topic ${i}-${h}`, '', `Paragraph about subject${i} and theme${h}. `.repeat(10), '');
    }
    writeFileSync(join(files, `doc-${String(i).padStart(3, '0')}.md`), parts.join('\n'));
  }
}

function inspect(dir = home): {
  sections: number;
  orphans: number;
  duplicates: number;
  running: number;
  fts: string;
} {
  const db = new Database(join(dir, 'brain.db'), { readonly: true });
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const result = {
    sections: one("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'section' AND retired_at IS NULL"),
    orphans: one(
      "SELECT COUNT(*) AS n FROM items s WHERE s.storage_kind = 'section' AND NOT EXISTS (SELECT 1 FROM items f WHERE f.id = s.file_id)",
    ),
    duplicates: one('SELECT COUNT(*) - COUNT(DISTINCT source_key) AS n FROM items'),
    running: one("SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'running')"),
    fts: 'ok',
  };
  const ftsRows = one('SELECT COUNT(*) AS n FROM items_fts');
  const searchable = one('SELECT COUNT(*) AS n FROM items WHERE indexed = 1 AND retired_at IS NULL');
  if (ftsRows !== searchable) result.fts = `fts has ${ftsRows} rows for ${searchable} searchable items`;
  db.close();
  return result;
}

describe('brain CLI', () => {
  it('add, index, search, read and status speak the documented JSON', async () => {
    writeFileSync(join(files, 'policy.md'), '# Expenses\n\nTaxis after 22:00 are reimbursed.\n');
    writeFileSync(join(files, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 1]));
    const added = await brainJson<{
      added: { id: string; label: string; path: string }[];
      refused: unknown[];
    }>('add', files);
    expect(added.added).toHaveLength(1);
    expect(added.refused).toEqual([
      { path: join(files, 'photo.jpg'), reason: expect.stringMatching(/unsupported/) },
    ]);
    const indexed = await brainJson<{ indexed: { id: string; sections: number }[]; failed: unknown[] }>(
      'index',
    );
    expect(indexed).toEqual({
      indexed: [{ id: added.added[0]!.id, label: 'policy.md', sections: 1 }],
      failed: [],
      embedded: 0,
    });
    const found = await brainJson<{
      semantic: boolean;
      hits: { id: string; citation: { lineStart: number } }[];
    }>('search', 'taxi reimbursed');
    expect(found.semantic).toBe(false);
    expect(found.hits[0]?.citation.lineStart).toBe(1);
    const read = await brainJson<{ text: string }>('read', found.hits[0]!.id);
    expect(read.text).toContain('Taxis after 22:00 are reimbursed.');
    const status = await brainJson<{
      user: string;
      counts: { files: number; indexed: number };
      model: { status: string };
    }>('status');
    expect(status.user).toBe('tester');
    expect(status.counts).toMatchObject({ files: 1, indexed: 1 });
    expect(status.model.status).toBe('off');
    const bad = await brain('search', 'x', '--k', '101');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[validation-failed\]: --k: k is at most 100/);
    const missing = await brain('read', 'f_nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error\[not-found\]/);
  });

  it('search --batch answers one JSON line per query line', async () => {
    writeFileSync(join(files, 'a.md'), '# Alpha\n\nThe alpha project ships in May.\n');
    await brainJson('add', files);
    await brainJson('index');
    const queries = join(root, 'q.jsonl');
    writeFileSync(queries, '{"id":"q1","text":"alpha ships"}\n{"id":"q2","text":"nothing matches zzz"}\n');
    const r = await brain('search', '--batch', queries, '--k', '20');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; hits: unknown[] });
    expect(lines.map((l) => [l.id, l.hits.length > 0])).toEqual([
      ['q1', true],
      ['q2', false],
    ]);
  });

  it('members and scopes: a member outside a team sees none of its files', async () => {
    await brainJson('members', 'add', 'ana', '--team', 'legal');
    await brainJson('members', 'add', 'ben');
    writeFileSync(join(files, 'contract.md'), '# Contract\n\nThe supplier contract renews in March.\n');
    await brainJson('--as', 'ana', 'add', files, '--scope', 'team:legal');
    await brainJson('--as', 'ana', 'index');
    const ana = await brainJson<{ hits: unknown[] }>('--as', 'ana', 'search', 'supplier contract');
    const ben = await brainJson<{ hits: unknown[] }>('--as', 'ben', 'search', 'supplier contract');
    expect(ana.hits.length).toBeGreaterThan(0);
    expect(ben.hits).toEqual([]);
  });

  it('a kill in the middle of indexing resumes without duplicates or orphans', async () => {
    writeCorpus(240);
    await brainJson('add', files);
    const child: ChildProcess = spawn('node', [BRAIN, '--home', home, 'index', '--json'], {
      env: { ...process.env, BRAIN_MODEL_DIR: join(root, 'no-model'), BRAIN_USER: 'tester' },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.once('exit', r));
    // Kill once some files are indexed and others are not.
    await until(
      () => {
        if (!existsSync(join(home, 'brain.db'))) return 0;
        const db = new Database(join(home, 'brain.db'), { readonly: true, timeout: 5000 });
        try {
          return (db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE state = 'done'").get() as { n: number }).n;
        } finally {
          db.close();
        }
      },
      (done) => done >= 1,
      { every: 10, label: 'the first indexed file' },
    );
    child.kill('SIGKILL');
    await exited;
    const midway = inspect();
    expect(midway.running).toBeGreaterThan(0);
    const report = await brainJson<{ indexed: unknown[]; failed: unknown[] }>('index');
    expect(report.failed).toEqual([]);
    const after = inspect();
    expect(after.sections).toBeGreaterThanOrEqual(240 * 12);
    expect(after).toEqual({
      sections: await referenceSections([files]),
      orphans: 0,
      duplicates: 0,
      running: 0,
      fts: 'ok',
    });
  });

  it('several processes add and index one workspace at once without losing anything', async () => {
    writeCorpus(30);
    await brainJson('add', files);
    const extra = join(root, 'extra');
    mkdirSync(extra);
    for (let i = 0; i < 10; i++) writeFileSync(join(extra, `x${i}.txt`), `extra file ${i} about zebras\n`);
    const results = await Promise.all([
      brain('index', '--json'),
      brain('index', '--json'),
      brain('add', extra, '--json'),
    ]);
    for (const r of results) expect(r.stderr).toBe('');
    await brainJson('index');
    const after = inspect();
    const expected = await referenceSections([files, extra]);
    expect(after).toEqual({ sections: expected, orphans: 0, duplicates: 0, running: 0, fts: 'ok' });
  });
});
