import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import type { FileList } from '#shared/api/types.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';
import { BrainHost } from './host.ts';

let ws: TestWorkspace;
let host: BrainHost | null = null;
const progress: IndexProgressEvent[] = [];

async function startHost(): Promise<BrainHost> {
  host = await BrainHost.start(ws.open(), { version: 'test' });
  host.on((event, payload) => {
    if (event === 'index.progress') progress.push(payload as IndexProgressEvent);
  });
  return host;
}

const files = async (h: BrainHost) => {
  const r = await h.invoke('files.list', { sort: 'name', dir: 'asc' });
  if (!r.ok) throw new Error(r.error.message);
  return r.data as FileList;
};

beforeEach(() => {
  ws = createTestWorkspace();
  progress.length = 0;
});
afterEach(async () => {
  await host?.close();
  host = null;
  await ws.cleanup();
});

describe('watched folders', () => {
  it('adds, re-indexes changed files as new versions, retires removed ones, and catches up after a restart', async () => {
    const folder = join(ws.files, 'watched');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.md'), '# Alpha\n\nThe alpha budget is 10k.\n');
    const h = await startHost();
    await h.invoke('settings.set', { indexOnAdd: true });
    const added = await h.invoke('watch.add', { path: folder });
    expect(added).toMatchObject({ ok: true, data: { path: folder, status: 'watching', files: 1 } });
    await h.invoke('files.index', {});
    await until(
      () => files(h),
      (l) => l.rows.every((r) => r.state === 'indexed'),
    );

    writeFileSync(join(folder, 'b.md'), '# Beta\n\nBeta ships in June.\n');
    await until(
      () => files(h),
      (l) => l.total === 2 && l.rows.every((r) => r.state === 'indexed'),
    );

    writeFileSync(join(folder, 'a.md'), '# Alpha\n\nThe alpha budget is 12k now.\n');
    await until(
      () => ws.open().search('alpha budget'),
      (r) => r.hits.some((hit) => hit.body.includes('12k')),
    );
    const e = ws.open();
    const versions = e.db
      .prepare(
        "SELECT retired_at, superseded_by FROM items WHERE storage_kind = 'section' AND label LIKE 'Alpha%' ORDER BY rowid",
      )
      .all() as { retired_at: string | null; superseded_by: string | null }[];
    expect(versions.length).toBe(2);
    expect(versions[0]?.retired_at).not.toBeNull();
    expect(versions[0]?.superseded_by).not.toBeNull();

    rmSync(join(folder, 'b.md'));
    await until(
      () => files(h),
      (l) => l.total === 1,
    );

    await h.close();
    host = null;
    writeFileSync(join(folder, 'c.txt'), 'Gamma notes, written while the app was closed.\n');
    rmSync(join(folder, 'a.md'));
    const again = await startHost();
    const list = await until(
      () => files(again),
      (l) => l.rows.map((r) => r.label).join() === 'c.txt',
    );
    expect(list.rows[0]?.state).not.toBe('failed');
    const watched = await again.invoke('watch.list', {});
    expect(watched).toMatchObject({ ok: true, data: { folders: [{ path: folder, files: 1 }] } });
  }, 60_000);

  it('refuses a path that is not a folder, naming it', async () => {
    const h = await startHost();
    const r = await h.invoke('watch.add', { path: join(ws.files, 'nope') });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('nope') },
    });
  });
});
