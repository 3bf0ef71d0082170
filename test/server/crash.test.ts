/**
 * [S16] Killing the server (kill -9) in the middle of a push loop and restarting it on the same
 * data loses nothing and duplicates nothing: the real `brain server` as a child process, on
 * PGlite in its data folder and on PostgreSQL through DATABASE_URL. The test client behaves like
 * an outbox: a batch without an answer is sent again after the restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Op } from '#shared/sync/protocol.ts';
import { TestClient } from './client.ts';
import { buildItemOp, hlc, itemId } from './factories.ts';
import { forEachBackend } from './harness.ts';
import { startPostgres, type TestPostgres } from './postgres.ts';

const BIN = resolve(import.meta.dirname, '../../bin/brain.mjs');

type Child = { url: string; invite: string | null; child: ChildProcess };

function startChild(dataDir: string, databaseUrl: string | null): Promise<Child> {
  const env: NodeJS.ProcessEnv = { ...process.env, BRAIN_LOG_LEVEL: 'warn' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [BIN, 'server', '--data', dataDir, '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${out}\n${err}`)), 60_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const url = out.match(/Org Brain server listening at (http:\/\/\S+)\n/)?.[1];
      if (!url) return;
      const invite = out.match(/^invite: (\S+)$/m)?.[1] ?? null;
      // The invitation line follows the URL line at once on a first start.
      setTimeout(() => {
        clearTimeout(timer);
        done({ url, invite: out.match(/^invite: (\S+)$/m)?.[1] ?? invite, child });
      }, 200);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code}):\n${out}\n${err}`));
    });
  });
}

function killHard(c: Child): Promise<void> {
  return new Promise((done) => {
    c.child.removeAllListeners('exit');
    c.child.once('exit', () => done());
    c.child.kill('SIGKILL');
  });
}

forEachBackend('crash', (backend) => {
  let pg: TestPostgres | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'brain-crash-'));
  beforeAll(async () => {
    if (backend.name === 'postgres') pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('[S16] kill -9 during a push loop, restart on the same data: nothing lost, nothing duplicated', async () => {
    let server = await startChild(dir, pg?.url ?? null);
    expect(server.invite).toMatch(/^obi_/);
    const admin = await new TestClient(server.url).redeem(server.invite ?? '', 'crash-test');
    // Ids are made in the server's workspace ([S25]).
    const ws = ((await admin.me()).body as { workspace: { id: string } }).workspace.id;
    const sent: Op[] = [];
    const acked = new Map<string, number>();
    let unacked: Op[][] = [];
    let n = 0;
    let interrupted = 0;
    const nextBatch = () =>
      Array.from({ length: 25 }, () => {
        n++;
        return buildItemOp(itemId(`crash-${n % 40}`, 'n', 'admin', ws), 'org', {
          hlc: hlc(n),
          item: { body: `v${n}` },
        });
      });
    const pushAll = async (client: TestClient, batches: Op[][]) => {
      for (const batch of batches) {
        const r = await client.push(batch);
        expect(r.refused).toEqual([]);
        for (const a of r.accepted) acked.set(a.id, a.seq);
      }
    };
    for (let round = 0; round < 3; round++) {
      const client = new TestClient(server.url, admin.token);
      await pushAll(client, unacked);
      unacked = [];
      const killer = new Promise<void>((done) => setTimeout(done, 400 + round * 250)).then(() =>
        killHard(server),
      );
      let alive = true;
      void killer.then(() => {
        alive = false;
      });
      while (alive) {
        const batch = nextBatch();
        sent.push(...batch);
        try {
          await pushAll(client, [batch]);
        } catch {
          unacked.push(batch);
          interrupted++;
        }
      }
      await killer;
      expect(server.child.exitCode === null && server.child.signalCode === 'SIGKILL').toBe(true);
      server = await startChild(dir, pg?.url ?? null);
      expect(server.invite).toBeNull();
    }
    try {
      const client = new TestClient(server.url, admin.token);
      await pushAll(client, unacked);
      const pulled = await client.pullAll();
      const seqs = pulled.ops.map((o) => o.seq);
      expect(new Set(pulled.ops.map((o) => o.op.id)).size).toBe(pulled.ops.length);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(pulled.ops.map((o) => o.op.id).sort()).toEqual(sent.map((o) => o.id).sort());
      for (const o of pulled.ops) expect(acked.get(o.op.id)).toBe(o.seq);
      expect(interrupted).toBeGreaterThanOrEqual(3);
    } finally {
      await killHard(server);
    }
  }, 170_000);
});
