import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import { removeOwnerFile, writeOwnerFile } from '../embed/remote.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import {
  backupDir,
  backupDue,
  backupName,
  checkDatabaseFile,
  listBackups,
  pruneBackups,
  takeBackup,
} from './backups.ts';
import { restoreBackup } from './restore.ts';
import { BackupSchedule } from './schedule.ts';

const HOUR = 60 * 60 * 1000;
let ws: TestWorkspace | undefined;

afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

function liveFiles(db: Database.Database): string[] {
  return (
    db
      .prepare("SELECT id FROM items WHERE storage_kind = 'file' AND retired_at IS NULL ORDER BY id")
      .all() as { id: string }[]
  ).map((r) => r.id);
}

describe('backups ([N15] in docs/PACKAGING.md)', () => {
  it('takes a checked, owner-only backup under its final name only; lists, prunes and knows when one is due', async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    await engine.add([ws.write('a.md', '# A\n\nalpha text')]);
    const dir = backupDir(engine.home);
    const now = new Date('2026-12-04T20:15:00Z');
    expect(backupDue(dir, now)).toBe(true);

    const taken = await takeBackup(engine.db, dir, { now });
    expect(taken.name).toBe('workspace-2026-12-04T20-15-00Z.db');
    expect(readdirSync(dir)).toEqual([taken.name]); // no .partial left
    const path = join(dir, taken.name);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(checkDatabaseFile(path)).toBe('ok');
    expect(listBackups(dir)).toEqual([{ name: taken.name, takenAt: now.toISOString(), size: taken.size }]);
    expect(readdirSync(dir).some((n) => n.includes('mirror'))).toBe(false);

    expect(backupDue(dir, new Date(now.getTime() + 23 * HOUR))).toBe(false);
    expect(backupDue(dir, new Date(now.getTime() + 24 * HOUR))).toBe(true);

    // Older ones go after 7 days; the newest stays however old it is.
    for (const days of [8, 9]) {
      writeFileSync(join(dir, backupName(new Date(now.getTime() - days * 24 * HOUR))), '');
    }
    writeFileSync(join(dir, 'unrelated.txt'), '');
    expect(pruneBackups(dir, 7, now).sort()).toEqual([
      backupName(new Date(now.getTime() - 9 * 24 * HOUR)),
      backupName(new Date(now.getTime() - 8 * 24 * HOUR)),
    ]);
    expect(pruneBackups(dir, 7, new Date(now.getTime() + 30 * 24 * HOUR))).toEqual([]);
    expect(listBackups(dir).map((b) => b.name)).toEqual([taken.name]);
    expect(existsSync(join(dir, 'unrelated.txt'))).toBe(true);
  });

  it('a backup taken while another connection writes is a consistent database', async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    const writer = new Database(join(engine.home, 'brain.db'));
    writer.exec('CREATE TABLE IF NOT EXISTS churn (n INTEGER, pad TEXT)');
    const insert = writer.prepare('INSERT INTO churn (n, pad) VALUES (?, ?)');
    let n = 0;
    // Big enough (~10 MB) that the backup takes several steps, between which the writer writes.
    writer.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run(n++, 'x'.repeat(500));
    })();
    const timer = setInterval(() => {
      writer.transaction(() => {
        for (let i = 0; i < 50; i++) insert.run(n++, 'x'.repeat(500));
      })();
    }, 2);
    try {
      await new Promise((r) => setTimeout(r, 30));
      const taken = await takeBackup(engine.db, backupDir(engine.home));
      const path = join(backupDir(engine.home), taken.name);
      expect(checkDatabaseFile(path)).toBe('ok');
      const copy = new Database(path, { readonly: true });
      const { count, max } = copy.prepare('SELECT count(*) AS count, max(n) AS max FROM churn').get() as {
        count: number;
        max: number | null;
      };
      copy.close();
      // Whole transactions only: the rows are 0..k-1 for some k, a multiple of 50, and the writes went on.
      expect(count % 50).toBe(0);
      expect(count).toBeGreaterThanOrEqual(20_000);
      expect(n).toBeGreaterThan(20_000);
      expect(max === null ? 0 : max + 1).toBe(count);
    } finally {
      clearInterval(timer);
      writer.close();
    }
  });

  it("restore brings back a removed file's rows, keeping the state before it as a backup", async () => {
    ws = createTestWorkspace();
    let engine = ws.open();
    const added = await engine.add([ws.write('a.md', '# A\n\nalpha'), ws.write('b.md', '# B\n\nbeta')]);
    const ids = added.added.map((a) => a.id).sort();
    const taken = await takeBackup(engine.db, backupDir(engine.home));
    await runCommand(memberContext(engine, 'cli'), 'items.remove', { id: ids[0] });
    expect(liveFiles(engine.db)).toEqual([ids[1]]);
    await engine.close();

    const report = await restoreBackup(ws.home, taken.name, new Date(Date.now() + 2000));
    expect(report.before.name).toMatch(/-before-restore\.db$/);
    expect(existsSync(report.movedAside)).toBe(true);
    engine = ws.open();
    expect(liveFiles(engine.db)).toEqual(ids);
    expect(listBackups(backupDir(ws.home)).map((b) => b.name)).toContain(report.before.name);
  });

  it('a corrupt backup is refused by restore with a clear error and changes nothing', async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    await engine.add([ws.write('a.md', '# A\n\nalpha')]);
    const dir = backupDir(engine.home);
    const taken = await takeBackup(engine.db, dir);
    const before = liveFiles(engine.db);
    await engine.close();
    const path = join(dir, taken.name);
    const bytes = readFileSync(path);
    bytes.fill(0xab, 4096, Math.min(bytes.length, 4096 * 6)); // pages past the header overwritten
    writeFileSync(path, bytes);

    await expect(restoreBackup(ws.home, taken.name)).rejects.toThrow(/damaged.*nothing was changed/);
    await expect(restoreBackup(ws.home, '../brain.db')).rejects.toThrow(/not a backup's name/);
    expect(listBackups(dir).map((b) => b.name)).toEqual([taken.name]);
    expect(readdirSync(ws.home).some((n) => n.includes('before-restore'))).toBe(false);
    const reopened = ws.open();
    expect(liveFiles(reopened.db)).toEqual(before);
  });

  it('restore refuses while another process owns the workspace (owner.json) and changes nothing', async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    const taken = await takeBackup(engine.db, backupDir(engine.home));
    await engine.close();
    writeOwnerFile(ws.home, { port: 1, token: 't' });
    try {
      await expect(restoreBackup(ws.home, taken.name)).rejects.toThrow(/has this workspace open; quit it/);
    } finally {
      removeOwnerFile(ws.home);
    }
    expect(listBackups(backupDir(ws.home)).map((b) => b.name)).toEqual([taken.name]);
    expect(readdirSync(ws.home).some((n) => n.includes('before-restore'))).toBe(false);
  });

  it('the host schedule takes one when due, never two at once, and logs a failure instead of throwing', async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    const dir = backupDir(engine.home);
    const schedule = new BackupSchedule(engine.db, engine.home);
    const now = new Date('2026-12-04T10:00:00Z');
    await Promise.all([schedule.look(now), schedule.look(now), takeBackup(engine.db, dir, { now })]);
    expect(listBackups(dir).map((b) => b.name)).toEqual([backupName(now)]);
    await schedule.look(new Date(now.getTime() + HOUR)); // not due
    expect(listBackups(dir)).toHaveLength(1);
    await schedule.look(new Date(now.getTime() + 25 * HOUR));
    expect(listBackups(dir)).toHaveLength(2);

    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const closed = new Database(':memory:');
      closed.close();
      await new BackupSchedule(closed, engine.home).look(new Date(now.getTime() + 50 * HOUR));
    } finally {
      console.error = original;
    }
    // Both of the look's tasks fail on a closed database; each says so, and the look goes on.
    expect(errors.map(String)).toEqual([
      expect.stringMatching(/\[activity\] old activity could not be removed/),
      expect.stringMatching(/\[backup\] the daily backup failed/),
    ]);
    await schedule.close();
  });
});
