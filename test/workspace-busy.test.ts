/**
 * Processes sharing a workspace (docs/WORKSPACE.md): while another process holds the write lock,
 * read-only commands answer as usual ([B1]) and a writer fails with `busy` once its wait is over
 * ([B2]). Every process is real: the CLI as `node bin/brain.mjs`, the other process as
 * test/lock-holder.ts through the project's tsx loader (bin/tsx.mjs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '#engine/engine.ts';
import { until } from '#engine/testing/until.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

const TSX = resolve('bin/tsx.mjs');
const HOLDER = resolve('test/lock-holder.ts');

let ws: CliWorkspace;
const holders: ChildProcess[] = [];

beforeEach(() => {
  ws = cliWorkspace('brain-busy-');
  writeFileSync(join(ws.files, 'fox.md'), '# Animals\n\nThe quick brown fox jumps over the lazy dog.\n');
  writeFileSync(join(ws.files, 'owl.md'), '# Birds\n\nThe owl watches the fox from the old oak.\n');
  writeFileSync(join(ws.files, 'late.md'), '# Later\n\nA file added while the workspace is busy.\n');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const h of holders.splice(0)) await release(h);
  ws.remove();
});

/** Starts the other process and waits until it holds BEGIN IMMEDIATE on the workspace database. */
async function holdWriteLock(): Promise<ChildProcess> {
  const child = spawn('node', [TSX, HOLDER, join(ws.home, 'brain.db')], { stdio: ['pipe', 'pipe', 'pipe'] });
  holders.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  await until(() => out.includes('held') || child.exitCode !== null, Boolean, { label: 'the lock holder' });
  if (!out.includes('held')) throw new Error(`the lock holder did not start: ${out}`);
  return child;
}

async function release(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin?.end();
  await exited;
}

/** True while some process holds the write lock (a writer that does not wait at all is refused). */
function lockIsHeld(): boolean {
  const db = new Database(join(ws.home, 'brain.db'), { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    return true;
  } finally {
    db.close();
  }
}

type Hit = { id: string; storageKind: string; citation: unknown };
type SearchOut = { hits: Hit[] };
const answers = (s: SearchOut) => s.hits.map((h) => ({ id: h.id, citation: h.citation }));
const telemetryRows = () => {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  const n = (db.prepare("SELECT COUNT(*) AS n FROM telemetry WHERE event = 'search'").get() as { n: number })
    .n;
  db.close();
  return n;
};

describe('processes sharing a workspace', () => {
  it('[B1] search, read, status and activity answer as usual while another process holds the write lock', async () => {
    await ws.brainJson('add', join(ws.files, 'fox.md'), join(ws.files, 'owl.md'));
    await ws.brainJson('index');
    const search = await ws.brainJson<SearchOut>('search', 'fox');
    const section = search.hits.find((h) => h.storageKind === 'section');
    expect(section).toBeDefined();
    const read = await ws.brainJson<unknown>('read', section?.id ?? '');
    const status = await ws.brainJson<unknown>('status');

    await holdWriteLock();
    expect(lockIsHeld()).toBe(true);
    // The default wait (10 s) applies: a write at open would fail these commands, not slow them.
    expect(answers(await ws.brainJson<SearchOut>('search', 'fox'))).toEqual(answers(search));
    expect(await ws.brainJson('read', section?.id ?? '')).toEqual(read);
    expect(await ws.brainJson('status')).toEqual(status);
    const activity = await ws.brainJson<{ entries: { event: string }[] }>('activity');
    expect(activity.entries.some((e) => e.event === 'search')).toBe(true);
    expect(lockIsHeld()).toBe(true);
  });

  it('[B1] a search logged while the lock is held is queued, not waited for, and written once it is free', async () => {
    await ws.brainJson('add', join(ws.files, 'fox.md'));
    await ws.brainJson('index');
    const before = telemetryRows();
    const holder = await holdWriteLock();
    vi.stubEnv('BRAIN_USER', 'tester'); // the local member the CLI runs made: opening writes nothing
    const engine = Engine.open({ home: ws.home, modelDir: ws.modelDir });
    try {
      const result = await engine.search('fox');
      expect(result.hits.length).toBeGreaterThan(0);
      expect(telemetryRows()).toBe(before);
      await release(holder);
    } finally {
      await engine.close(); // one more short try, now that the lock is free
    }
    expect(telemetryRows()).toBe(before + 1);
  });

  it('[B2] a writer that waits out the lock fails with error[busy], and nothing is marked failed', async () => {
    await ws.brainJson('add', join(ws.files, 'fox.md'));
    const holder = await holdWriteLock();
    // The wait is shortened through the documented variable; the outcome is what a 10 s wait gives.
    const short = ws.with({ env: { BRAIN_WRITE_LOCK_TIMEOUT_MS: '300' } });
    for (const args of [['add', join(ws.files, 'late.md')], ['index'], ['members', 'add', 'bob']]) {
      const r = await short.brain(...args);
      expect(r.code, `brain ${args.join(' ')}`).toBe(1);
      expect(r.stderr).toMatch(/^error\[busy\]: .*another Org Brain process holds/m);
      expect(r.stderr).not.toMatch(/internal|database is locked/);
    }
    expect(lockIsHeld()).toBe(true);

    await release(holder);
    const index = await ws.brainJson<{ indexed: { label: string }[]; failed: unknown[] }>('index');
    expect(index.indexed.map((f) => f.label)).toEqual(['fox.md']);
    expect(index.failed).toEqual([]);
    const added = await ws.brainJson<{ added: { label: string }[] }>('add', join(ws.files, 'late.md'));
    expect(added.added.map((f) => f.label)).toEqual(['late.md']);
  });
});
