import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';
import { connect, getSyncStatus } from './index.ts';
import { SyncLoop } from './loop.ts';
import { FakeHttpServer } from './testing/fake-http.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function replica(fake: FakeHttpServer, user: string): Promise<{ ws: TestWorkspace; engine: Engine }> {
  const ws = createTestWorkspace();
  cleanups.push(() => ws.cleanup());
  const engine = ws.open();
  await connect(engine, fake.url, fake.invite({ user }));
  return { ws, engine };
}

describe('[C11] background sync in the host', () => {
  it('pushes and pulls on its own, reports changes, goes offline and comes back', async () => {
    const fake = new FakeHttpServer();
    await fake.start();
    cleanups.push(() => fake.stop());
    const a = await replica(fake, 'ann');
    const b = await replica(fake, 'ben');
    let changes = 0;
    const loops = [a, b].map(
      (r) => new SyncLoop(r.engine, { intervalMs: 50, maxBackoffMs: 200, onChange: () => (changes += 1) }),
    );
    for (const l of loops) {
      l.start();
      cleanups.push(() => l.stop());
    }
    await a.engine.add([a.ws.write('one.md', '# One\n\nfirst words\n')]);
    const has = (e: Engine, label: string) =>
      e.db.prepare('SELECT 1 FROM items WHERE label = ?').get(label) !== undefined;
    await until(() => has(b.engine, 'one.md'));
    expect(changes).toBeGreaterThan(0);

    await fake.stop();
    await a.engine.add([a.ws.write('two.md', '# Two\n\nwritten offline\n')]);
    await until(() => getSyncStatus(a.engine).state === 'offline');
    expect(getSyncStatus(a.engine).pending).toBeGreaterThan(0);
    // the same port again: the replica's server URL is unchanged
    const port = Number(new URL(fake.url).port);
    await fake.start(port);
    await until(() => has(b.engine, 'two.md'));
    await until(() => getSyncStatus(a.engine).state === 'online' && getSyncStatus(a.engine).pending === 0);
  });
});
