/**
 * Restoring a backup under a running host ([N18] in docs/PACKAGING.md), on a real workspace: the
 * host and its engine are closed, the backup put in place, a new engine and host opened on it;
 * listeners stay subscribed and hear `restored`, calls go on against the restored database, and a
 * wrong or damaged backup changes nothing and closes nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName } from '#shared/api/events.ts';
import { backupDir } from '../backup/backups.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { HostSlot } from './slot.ts';

let ws: TestWorkspace;
let slot: HostSlot;
let events: { event: EventName; payload: unknown }[];

beforeEach(async () => {
  ws = createTestWorkspace();
  slot = await HostSlot.start(() => ws.open(), { version: 'test' });
  events = [];
  slot.on((event, payload) => events.push({ event, payload }));
});
afterEach(async () => {
  await slot.close();
  await ws.cleanup();
});

async function call<T = Record<string, unknown>>(name: string, input: unknown): Promise<T> {
  const result = await slot.invoke(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
  return result.data as T;
}

async function addIndexed(name: string, text: string): Promise<void> {
  await slot.engine.add([ws.write(name, text)]);
  await slot.engine.index();
}

const hits = async (query: string) =>
  (await call<{ hits: unknown[] }>('search.query', { query })).hits.length;

describe('[N18] restoring a backup from the app', () => {
  it('puts the backup in place under the running host: what came after is gone, calls and listeners go on', async () => {
    await addIndexed('before.md', '# Before\n\nThe zebra budget was approved.\n');
    const { taken } = await call<{ taken: { name: string } }>('backups.create', {});
    await addIndexed('after.md', '# After\n\nThe walrus project started.\n');
    expect(await hits('walrus')).toBe(1);
    const first = slot.engine;

    const report = await call<{ restored: string; before: { name: string }; movedAside: string }>(
      'backups.restore',
      { name: taken.name },
    );
    expect(report.restored).toBe(taken.name);
    expect(report.before.name).toMatch(/before-restore/);
    expect(slot.engine).not.toBe(first);
    expect(await hits('walrus')).toBe(0);
    expect(await hits('zebra')).toBe(1);
    expect(events).toContainEqual({
      event: 'app.command',
      payload: { command: 'restored', name: taken.name },
    });

    // The state it replaced was backed up first: restoring that brings the walrus back.
    await call('backups.restore', { name: report.before.name });
    expect(await hits('walrus')).toBe(1);
    // The new host works like the first: a file added now is indexed and found.
    await addIndexed('later.md', '# Later\n\nThe okapi plan.\n');
    expect(await hits('okapi')).toBe(1);
  });

  it('a backup that does not exist, or is damaged, changes nothing and closes nothing', async () => {
    await addIndexed('kept.md', '# Kept\n\nThe heron report.\n');
    const engine = slot.engine;
    const missing = await slot.invoke('backups.restore', { name: 'workspace-2020-01-01T00-00-00Z.db' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const damaged = 'workspace-2021-01-01T00-00-00Z.db';
    await call('backups.create', {});
    writeFileSync(join(backupDir(ws.home), damaged), 'not a database at all, just text');
    const refused = await slot.invoke('backups.restore', { name: damaged });
    expect(refused).toMatchObject({ ok: false, error: { code: 'validation-failed' } });
    expect(slot.engine).toBe(engine);
    expect(await hits('heron')).toBe(1);
    expect(events.some((e) => e.event === 'app.command')).toBe(false);
  });

  it('is for people: agents cannot restore', async () => {
    const { runCommand } = await import('../commands/index.ts');
    const { memberContext } = await import('../commands/types.ts');
    await expect(
      runCommand(memberContext(slot.engine, 'agent'), 'backups.restore', {
        name: 'workspace-2020-01-01T00-00-00Z.db',
      }),
    ).rejects.toMatchObject({ code: 'not-found' });
  });
});
