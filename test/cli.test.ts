/**
 * The `brain` command as scripts use it: real processes on one real workspace, including a kill
 * in the middle of indexing and several processes at once.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-');
});
afterEach(() => ws.remove());

/** Sections the same files give when indexed calmly in a fresh workspace. */
async function referenceSections(dirs: string[]): Promise<number> {
  const ref = ws.with({ home: join(ws.root, 'ref-home') });
  for (const d of dirs) await ref.brainJson('add', d);
  await ref.brainJson('index');
  return inspect(ref.home).sections;
}

function writeCorpus(count: number): void {
  for (let i = 0; i < count; i++) {
    const parts = [`# Document ${i}`, ''];
    for (let h = 0; h < 12; h++) {
      parts.push(`## Topic ${i}-${h}`, '', `Paragraph about subject${i} and theme${h}. `.repeat(10), '');
    }
    writeFileSync(join(ws.files, `doc-${String(i).padStart(3, '0')}.md`), parts.join('\n'));
  }
}

function inspect(dir = ws.home): {
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
    writeFileSync(join(ws.files, 'policy.md'), '# Expenses\n\nTaxis after 22:00 are reimbursed.\n');
    writeFileSync(
      join(ws.files, 'photo.bmp'),
      Buffer.from([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]),
    );
    const added = await ws.brainJson<{
      added: { id: string; label: string; path: string }[];
      refused: unknown[];
    }>('add', ws.files);
    expect(added.added).toHaveLength(1);
    expect(added.refused).toEqual([
      { path: join(ws.files, 'photo.bmp'), reason: expect.stringMatching(/unsupported/) },
    ]);
    const indexed = await ws.brainJson<{ indexed: { id: string; sections: number }[]; failed: unknown[] }>(
      'index',
    );
    expect(indexed).toEqual({
      queued: 1,
      indexed: [{ id: added.added[0]!.id, label: 'policy.md', sections: 1 }],
      failed: [],
      embedded: 0,
      mentions: 0,
    });
    const found = await ws.brainJson<{
      semantic: boolean;
      hits: { id: string; citation: { lineStart: number } }[];
    }>('search', 'taxi reimbursed');
    expect(found.semantic).toBe(false);
    expect(found.hits[0]?.citation.lineStart).toBe(1);
    const read = await ws.brainJson<{ text: string }>('read', found.hits[0]!.id);
    expect(read.text).toContain('Taxis after 22:00 are reimbursed.');
    const status = await ws.brainJson<{
      user: string;
      counts: { files: number; indexed: number };
      model: { status: string };
    }>('status');
    expect(status.user).toBe('tester');
    expect(status.counts).toMatchObject({ files: 1, indexed: 1 });
    expect(status.model.status).toBe('off');
    const bad = await ws.brain('search', 'x', '--k', '101');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[validation-failed\]: --k: k is at most 100/);
    const missing = await ws.brain('read', 'f_nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error\[not-found\]/);
  });

  it('add of a folder with no files says so', async () => {
    const empty = join(ws.root, 'empty-folder');
    mkdirSync(empty);
    expect(await ws.brainText('add', empty)).toBe(`Nothing added: no files found in ${empty}.\n`);
  });

  it('search --batch answers one JSON line per query line', async () => {
    writeFileSync(join(ws.files, 'a.md'), '# Alpha\n\nThe alpha project ships in May.\n');
    await ws.brainJson('add', ws.files);
    await ws.brainJson('index');
    const queries = join(ws.root, 'q.jsonl');
    writeFileSync(queries, '{"id":"q1","text":"alpha ships"}\n{"id":"q2","text":"nothing matches zzz"}\n');
    const r = await ws.brain('search', '--batch', queries, '--k', '20');
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
    await ws.brainJson('members', 'add', 'ana', '--team', 'legal');
    await ws.brainJson('members', 'add', 'ben');
    writeFileSync(join(ws.files, 'contract.md'), '# Contract\n\nThe supplier contract renews in March.\n');
    await ws.brainJson('--as', 'ana', 'add', ws.files, '--scope', 'team:legal');
    await ws.brainJson('--as', 'ana', 'index');
    const ana = await ws.brainJson<{ hits: unknown[] }>('--as', 'ana', 'search', 'supplier contract');
    const ben = await ws.brainJson<{ hits: unknown[] }>('--as', 'ben', 'search', 'supplier contract');
    expect(ana.hits.length).toBeGreaterThan(0);
    expect(ben.hits).toEqual([]);
  });

  it('a kill in the middle of indexing resumes without duplicates or orphans', async () => {
    writeCorpus(240);
    await ws.brainJson('add', ws.files);
    const child = ws.spawn(['index', '--json'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    // Kill once some files are indexed and others are not.
    await until(
      () => {
        if (!existsSync(join(ws.home, 'brain.db'))) return 0;
        const db = new Database(join(ws.home, 'brain.db'), { readonly: true, timeout: 5000 });
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
    const report = await ws.brainJson<{ indexed: unknown[]; failed: unknown[] }>('index');
    expect(report.failed).toEqual([]);
    const after = inspect();
    expect(after.sections).toBeGreaterThanOrEqual(240 * 12);
    expect(after).toEqual({
      sections: await referenceSections([ws.files]),
      orphans: 0,
      duplicates: 0,
      running: 0,
      fts: 'ok',
    });
  });

  it('several processes add and index one workspace at once without losing anything', async () => {
    writeCorpus(30);
    await ws.brainJson('add', ws.files);
    const extra = join(ws.root, 'extra');
    mkdirSync(extra);
    for (let i = 0; i < 10; i++) writeFileSync(join(extra, `x${i}.txt`), `extra file ${i} about zebras\n`);
    const results = await Promise.all([
      ws.brain('index', '--json'),
      ws.brain('index', '--json'),
      ws.brain('add', extra, '--json'),
    ]);
    for (const r of results) expect(r.stderr).toBe('');
    await ws.brainJson('index');
    const after = inspect();
    const expected = await referenceSections([ws.files, extra]);
    expect(after).toEqual({ sections: expected, orphans: 0, duplicates: 0, running: 0, fts: 'ok' });
  });
});
