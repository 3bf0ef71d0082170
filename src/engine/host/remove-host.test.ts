/** Removing a file through a host (docs/FACTS.md [K8]): the windows are told, so the grid drops its row. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Events } from '#shared/api/events.ts';
import type { FileList } from '#shared/api/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { BrainHost } from './host.ts';

let ws: TestWorkspace;
let engine: Engine;
let host: BrainHost;
const changes: Events['files.changed'][] = [];

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  await engine.add([ws.write('a.md', '# A\n\nAlpha.\n'), ws.write('b.md', '# B\n\nBeta.\n')]);
  host = await BrainHost.start(engine, { version: 'test' });
  changes.length = 0;
  host.on((event, payload) => {
    if (event === 'files.changed') changes.push(payload as Events['files.changed']);
  });
});
afterEach(async () => {
  await host.close();
  await ws.cleanup();
});

async function ok<T>(name: string, input?: unknown): Promise<T> {
  const r = await host.invoke(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as T;
}

describe('items.remove in a host', () => {
  it('[K8] tells the windows the file changed, and the file list leaves it out', async () => {
    const before = await ok<FileList>('files.list', {});
    const a = before.rows.find((r) => r.label === 'a.md');
    expect(before.total).toBe(2);
    expect(await ok('items.remove', { id: a?.id })).toMatchObject({ id: a?.id, removed: true });
    expect(changes).toEqual([{ ids: [a?.id] }]);
    expect((await ok<FileList>('files.list', {})).rows.map((r) => r.label)).toEqual(['b.md']);
    // Removing it again changes nothing, and tells no one.
    expect(await ok('items.remove', { id: a?.id })).toMatchObject({ removed: false });
    expect(changes).toHaveLength(1);
  });
});
