/**
 * A host that stays up while other processes write the same workspace (src/engine/host/others-writes.ts):
 * the command line adding a file, then indexing it, reaches the app's windows as `files.changed`
 * and a fresh `status.changed` within a few seconds; a process that only searches tells them nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Events } from '#shared/api/events.ts';
import { Engine } from '../src/engine/engine.ts';
import { BrainHost } from '../src/engine/host/host.ts';
import { OthersWrites } from '../src/engine/host/others-writes.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
let engine: Engine;

beforeEach(async () => {
  ws = cliWorkspace('brain-others-writes-');
  expect((await ws.brain('status')).code).toBe(0); // the workspace, made by the command line's member
  vi.stubEnv('BRAIN_USER', 'tester'); // this process is the same local member
  engine = Engine.open({ home: ws.home, modelDir: ws.modelDir });
});
afterEach(async () => {
  await engine?.close();
  vi.unstubAllEnvs();
  ws.remove();
});

describe("another process's writes", () => {
  it('reach a running host: the added file, then its indexing', async () => {
    const host = await BrainHost.start(engine, { version: 'test' });
    const files: Events['files.changed'][] = [];
    const statuses: Events['status.changed'][] = [];
    host.on((event, payload) => {
      if (event === 'files.changed') files.push(payload as Events['files.changed']);
      if (event === 'status.changed') statuses.push(payload as Events['status.changed']);
    });
    try {
      writeFileSync(join(ws.files, 'rota.md'), '# Rota\n\nDana is on call in March.\n');
      expect((await ws.brain('add', ws.files)).code).toBe(0);
      await vi.waitFor(() => expect(files.length).toBeGreaterThan(0), { timeout: 15_000, interval: 200 });
      await vi.waitFor(() => expect(statuses.at(-1)?.counts.notIndexed).toBe(1), { timeout: 15_000 });

      expect((await ws.brain('index')).code).toBe(0);
      await vi.waitFor(() => expect(statuses.at(-1)?.counts.indexed).toBe(1), {
        timeout: 15_000,
        interval: 200,
      });
    } finally {
      await host.close();
    }
  }, 60_000);

  it('a process that only searches changes nothing the windows show', async () => {
    writeFileSync(join(ws.files, 'rota.md'), '# Rota\n\nDana is on call in March.\n');
    expect((await ws.brain('add', ws.files)).code).toBe(0);
    expect((await ws.brain('index')).code).toBe(0);
    let told = 0;
    const others = new OthersWrites(engine.db, () => told++);
    expect((await ws.brain('search', 'on call')).code).toBe(0); // logs its search: a write, of telemetry
    expect(others.check()).toBe(false);
    expect((await ws.brain('note', 'add', '--label', 'Rota owner', 'Dana keeps the rota.')).code).toBe(0);
    expect(others.check()).toBe(true);
    expect(told).toBe(1);
    // This connection's own writes are not another process's.
    await engine.add([join(ws.files, 'rota.md')]);
    expect(others.check()).toBe(false);
  }, 60_000);
});
