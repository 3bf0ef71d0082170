/**
 * Workspace server throughput, in-process over loopback HTTP, per storage backend:
 *   - one client pushes N operations (batches of PUSH_MAX_OPS) and pulls them back (pages of
 *     PULL_MAX_OPS): ops/s each way;
 *   - C clients push M operations each at once (batches of `batch`): request latency p50/p95,
 *     overall ops/s, and a check that every op is stored exactly once ("lost" must be 0).
 * PGlite runs on a data folder in a temp dir; PostgreSQL is BENCH_DATABASE_URL, or a throwaway
 * local cluster (test/server/postgres.ts), or skipped when neither exists. Figures, not asserts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PULL_MAX_OPS, PUSH_MAX_OPS } from '#shared/sync/protocol.ts';
import { buildApp } from '../src/server/app.ts';
import { createFsBlobStore } from '../src/server/blobs/store.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { openPglite } from '../src/server/db/pglite.ts';
import { openPostgres } from '../src/server/db/pool.ts';
import type { Db } from '../src/server/db/types.ts';
import { ensureWorkspace } from '../src/server/workspace.ts';
import { TestClient } from '../test/server/client.ts';
import { buildItemOp, hlc, itemId, TEST_WORKSPACE } from '../test/server/factories.ts';
import { startPostgres } from '../test/server/postgres.ts';
import { percentile, printTable, round } from './util.ts';

export type SyncServerBenchOptions = {
  backends?: ('pglite' | 'postgres')[];
  ops?: number;
  clients?: number;
  opsPerClient?: number;
  batch?: number;
  log?: (line: string) => void;
};

export type SyncServerBenchRow = {
  backend: string;
  pushOpsPerSec: number;
  pullOpsPerSec: number;
  concurrentClients: number;
  concurrentOps: number;
  p50Ms: number;
  p95Ms: number;
  concurrentOpsPerSec: number;
  lost: number;
};

async function openBackend(name: 'pglite' | 'postgres', dir: string) {
  if (name === 'pglite') {
    const db = await openPglite(join(dir, 'db'));
    return { db, close: () => db.close() };
  }
  const external = process.env.BENCH_DATABASE_URL;
  const pg = external ? null : await startPostgres();
  const url = external ?? pg?.url;
  if (!url) return null;
  const db = await openPostgres(url, 20);
  return {
    db,
    async close() {
      await db.close();
      await pg?.stop();
    },
  };
}

/** `owner`'s notes: their ids are made in the owner's namespace, as the server checks ([S25]). */
function opsFor(prefix: string, count: number, owner: string) {
  return Array.from({ length: count }, (_, i) =>
    buildItemOp(itemId(`${prefix}-${i}`, 'n', owner), 'org', {
      hlc: hlc(i),
      item: { body: `${prefix} ${i} `.repeat(20) },
    }),
  );
}

async function oneClient(admin: TestClient, count: number) {
  const ops = opsFor('solo', count, 'admin');
  let t = performance.now();
  for (let i = 0; i < ops.length; i += PUSH_MAX_OPS) await admin.push(ops.slice(i, i + PUSH_MAX_OPS));
  const pushSec = (performance.now() - t) / 1000;
  t = performance.now();
  const pulled = await admin.pullAll(0, PULL_MAX_OPS);
  const pullSec = (performance.now() - t) / 1000;
  if (pulled.ops.length !== count) throw new Error(`pulled ${pulled.ops.length} of ${count}`);
  return { push: count / pushSec, pull: count / pullSec, cursor: pulled.cursor };
}

async function manyClients(db: Db, admin: TestClient, clients: number, each: number, batch: number) {
  const members = await Promise.all(Array.from({ length: clients }, (_, i) => admin.join(`bench${i}`)));
  const latencies: number[] = [];
  const before = Number((await db.query<{ n: number | string }>('SELECT count(*) AS n FROM ops'))[0]?.n ?? 0);
  const t = performance.now();
  await Promise.all(
    members.map(async (c, ci) => {
      const ops = opsFor(`c${ci}`, each, `bench${ci}`);
      for (let i = 0; i < ops.length; i += batch) {
        const start = performance.now();
        await c.push(ops.slice(i, i + batch));
        latencies.push(performance.now() - start);
      }
    }),
  );
  const sec = (performance.now() - t) / 1000;
  const after = Number((await db.query<{ n: number | string }>('SELECT count(*) AS n FROM ops'))[0]?.n ?? 0);
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    opsPerSec: (clients * each) / sec,
    lost: clients * each - (after - before),
  };
}

export async function runSyncServerBench(opts: SyncServerBenchOptions = {}): Promise<SyncServerBenchRow[]> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const o = { ops: 10_000, clients: 20, opsPerClient: 500, batch: 50, ...opts };
  const rows: SyncServerBenchRow[] = [];
  for (const name of opts.backends ?? ['pglite', 'postgres']) {
    const dir = mkdtempSync(join(tmpdir(), 'brain-bench-sync-'));
    const backend = await openBackend(name, dir);
    if (!backend) {
      log(`sync server bench: no PostgreSQL (set BENCH_DATABASE_URL or install postgresql): skipped ${name}`);
      continue;
    }
    try {
      await migrate(backend.db, new Date().toISOString());
      const code = await ensureWorkspace(backend.db, new Date(), 'Org Brain', TEST_WORKSPACE);
      const app = await buildApp({
        db: backend.db,
        blobs: createFsBlobStore(join(dir, 'blobs')),
        uploadDir: join(dir, 'uploads'),
        rateLimit: false,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      try {
        const admin = await new TestClient(url).redeem(code ?? '', 'bench');
        log(`sync server bench [${name}]: push/pull ${o.ops} ops…`);
        const solo = await oneClient(admin, o.ops);
        log(`sync server bench [${name}]: ${o.clients} clients × ${o.opsPerClient} ops…`);
        const many = await manyClients(backend.db, admin, o.clients, o.opsPerClient, o.batch);
        rows.push({
          backend: name,
          pushOpsPerSec: round(solo.push, 0),
          pullOpsPerSec: round(solo.pull, 0),
          concurrentClients: o.clients,
          concurrentOps: o.clients * o.opsPerClient,
          p50Ms: round(many.p50, 1),
          p95Ms: round(many.p95, 1),
          concurrentOpsPerSec: round(many.opsPerSec, 0),
          lost: many.lost,
        });
      } finally {
        await app.close();
      }
    } finally {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  printTable(
    `Workspace server: ${o.ops} ops one client; ${o.clients} clients × ${o.opsPerClient} ops in batches of ${o.batch}`,
    [
      'backend',
      'push ops/s',
      'pull ops/s',
      'concurrent ops',
      'push p50 ms',
      'push p95 ms',
      'concurrent ops/s',
      'lost',
    ],
    rows.map((r) => [
      r.backend,
      r.pushOpsPerSec,
      r.pullOpsPerSec,
      r.concurrentOps,
      r.p50Ms,
      r.p95Ms,
      r.concurrentOpsPerSec,
      r.lost,
    ]),
  );
  return rows;
}

// `node bin/tsx.mjs bench/sync-server.ts` runs it alone.
if (process.argv.some((a) => a.endsWith('bench/sync-server.ts'))) await runSyncServerBench();
