import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { toTransferable } from '#shared/errors.ts';
import { openDb, writeLockTimeoutMs, writeTx } from './driver.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

const dirs: string[] = [];
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-db-'));
  dirs.push(dir);
  return join(dir, 'brain.db');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('database', () => {
  it('migrates forward once, in WAL mode, with sqlite-vec loaded', () => {
    const path = tempDb();
    const db = openDb(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT vec_version() AS v').get()).toEqual({ v: expect.stringMatching(/^v0\./) });
    expect(migrate(db)).toEqual([]);
    const ids = db.prepare('SELECT id FROM __migrations__ ORDER BY rowid').all();
    expect(ids).toEqual(MIGRATIONS.map((m) => ({ id: m.id })));
    db.close();
  });

  it('refuses a database written by a version with migrations it does not know', () => {
    const db = openDb(tempDb());
    db.prepare("INSERT INTO __migrations__ (id, applied_at) VALUES ('9999-from-the-future', 'x')").run();
    expect(() => migrate(db)).toThrow(/different version of Org Brain/);
    db.close();
  });

  it('a writer waiting on another process fails clearly after the bound instead of hanging', () => {
    const path = tempDb();
    const holder = openDb(path);
    const waiter = openDb(path, { busyTimeoutMs: 200 });
    holder.prepare('BEGIN IMMEDIATE').run();
    const started = Date.now();
    expect(() => writeTx(waiter, () => waiter.prepare("INSERT INTO meta VALUES ('k', 'v')").run())).toThrow(
      /workspace is busy/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    holder.prepare('ROLLBACK').run();
    holder.close();
    waiter.close();
  });

  it('[B1] opening a migrated database runs no write: it opens while another connection holds the lock', () => {
    const path = tempDb();
    openDb(path).close();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const reader = openDb(path, { busyTimeoutMs: 0 });
    expect(reader.prepare('SELECT COUNT(*) AS n FROM __migrations__').get()).toEqual({
      n: MIGRATIONS.length,
    });
    reader.close();
    holder.exec('ROLLBACK');
    holder.close();
  });

  it('[B2] migrations at open and statements outside writeTx that wait out the lock are busy, not internal', () => {
    const fresh = tempDb();
    const early = new Database(fresh);
    early.exec('CREATE TABLE t (x); BEGIN IMMEDIATE');
    expect(() => openDb(fresh, { busyTimeoutMs: 50 })).toThrow(expect.objectContaining({ code: 'busy' }));
    early.exec('ROLLBACK');
    early.close();

    const path = tempDb();
    openDb(path).close();
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const waiter = openDb(path, { busyTimeoutMs: 50 });
    let raw: unknown;
    try {
      waiter.prepare("INSERT INTO meta VALUES ('k', 'v')").run();
    } catch (err) {
      raw = err;
    }
    expect(toTransferable(raw)).toEqual({
      code: 'busy',
      message: expect.stringMatching(/another Org Brain process/),
    });
    waiter.close();
    holder.exec('ROLLBACK');
    holder.close();
  });

  it('the write-lock wait comes from BRAIN_WRITE_LOCK_TIMEOUT_MS when it is a whole number', () => {
    expect(writeLockTimeoutMs({})).toBe(10_000);
    expect(writeLockTimeoutMs({ BRAIN_WRITE_LOCK_TIMEOUT_MS: '250' })).toBe(250);
    expect(writeLockTimeoutMs({ BRAIN_WRITE_LOCK_TIMEOUT_MS: 'soon' })).toBe(10_000);
  });
});
