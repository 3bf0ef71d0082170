/**
 * The replica's side of the server's authority, with real components: engines on real SQLite
 * files and the real workspace server over HTTP on PGlite. A revoked replica removes what it
 * received ([S32]); a malformed page is refused whole and an unknown kind set aside ([S30]); a
 * change that cannot be sent is an error, never silent ([S29]); the CLI says so too.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '#engine/engine.ts';
import { syncRound } from '#engine/sync/client.ts';
import { connect, getSyncStatus, syncNow } from '#engine/sync/index.ts';
import { readState, readToken } from '#engine/sync/state.ts';
import { HttpTransport } from '#engine/sync/transport.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import type { PullResponse } from '#shared/sync/protocol.ts';
import { useServer } from '../server/harness.ts';
import { pgliteBackend } from '../server/support.ts';

const run = promisify(execFile);

describe('[C15] the replica under an authoritative server', { timeout: 120_000 }, () => {
  const env = useServer(pgliteBackend);
  let workspaces: TestWorkspace[] = [];
  beforeEach(() => {
    workspaces = [];
  });
  afterEach(async () => {
    for (const ws of workspaces) await ws.cleanup();
  });

  async function replica(user: string, teams: string[] = []): Promise<{ engine: Engine; ws: TestWorkspace }> {
    const ws = createTestWorkspace();
    workspaces.push(ws);
    const engine = ws.open();
    const code = await env().admin.invite({ user, teams });
    expect((await connect(engine, env().url, code)).syncError).toBeNull();
    return { engine, ws };
  }

  const labels = (e: Engine) =>
    (e.db.prepare('SELECT label FROM items ORDER BY label').all() as { label: string }[]).map((r) => r.label);

  it('[S32] a revoked replica removes what it received, keeps what was only made here, and says so', async () => {
    const admin = await replica('boss');
    const bob = await replica('bob');
    await admin.engine.add([admin.ws.write('team-plan.md', '# Plan\n\nThe shared plan.\n')]);
    await syncNow(admin.engine);
    await bob.engine.add([bob.ws.write('bob-draft.md', '# Draft\n\nOnly bob wrote this.\n')]);
    await bob.engine.index();
    await syncNow(bob.engine);
    await syncNow(bob.engine);
    expect(labels(bob.engine)).toEqual(['Draft', 'bob-draft.md', 'team-plan.md']);
    const received = admin.engine.db.prepare("SELECT blob FROM items WHERE label = 'team-plan.md'").get() as {
      blob: string;
    };
    expect(bob.engine.blobs.has(received.blob)).toBe(true);

    await env().admin.revoke('bob');
    const err = await syncNow(bob.engine).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'forbidden', details: { revoked: true } });
    expect((err as Error).message).toMatch(
      /was revoked .*1 items, 0 links and 0 proposals received from it were removed/,
    );
    expect(labels(bob.engine)).toEqual(['Draft', 'bob-draft.md']);
    expect(bob.engine.blobs.has(received.blob)).toBe(false);
    expect(readToken(bob.engine.home)).toBeNull();
    const status = getSyncStatus(bob.engine);
    expect(status).toMatchObject({ connected: false, lastError: expect.stringMatching(/was revoked/) });
    // What bob made here is still searchable.
    expect((await bob.engine.search('bob wrote', { mode: 'keyword' })).hits.length).toBeGreaterThan(0);
  });

  it('[S30] a malformed page is refused whole; an op of an unknown kind is set aside and counted', async () => {
    const admin = await replica('boss');
    const bob = await replica('bob');
    await admin.engine.add([
      admin.ws.write('a.md', '# A\n\nalpha\n'),
      admin.ws.write('b.md', '# B\n\nbeta\n'),
    ]);
    await syncNow(admin.engine);
    const state = readState(bob.engine.db);
    const http = new HttpTransport(state.server ?? '', readToken(bob.engine.home));
    const deps = {
      db: bob.engine.db,
      blobs: bob.engine.blobs,
      workspaceId: bob.engine.workspaceId,
      localModel: null,
    };
    let mangle: (page: PullResponse) => unknown = (p) => p;
    const transport = Object.assign(Object.create(http) as HttpTransport, {
      pull: async (after: number, limit: number, ack?: string | null) =>
        mangle(await http.pull(after, limit, ack)) as PullResponse,
    });
    const before = labels(bob.engine);
    // The second op is an item whose scope is not a scope: the whole page is refused.
    mangle = (p) => ({
      ...p,
      ops: p.ops.map((o, i) =>
        i === 1 && o.op.kind === 'item.upsert'
          ? { ...o, op: { ...o.op, item: { ...o.op.item, scope: 'everyone' } } }
          : o,
      ),
    });
    await expect(syncRound(deps, transport)).rejects.toThrow(
      /malformed pull page .*nothing of it was applied/,
    );
    expect(labels(bob.engine)).toEqual(before);
    expect(readState(bob.engine.db).cursor).toBe(state.cursor);
    // A newer peer's kind among good ops: the good ones apply, the other waits aside.
    mangle = (p) => ({
      ...p,
      ops: [...p.ops, { seq: 999, actor: 'boss', op: { kind: 'fact.upsert', id: 'x', fact: {} } }],
    });
    const report = await syncRound(deps, transport);
    expect(report.setAside).toBe(1);
    expect(labels(bob.engine)).toEqual(['a.md', 'b.md']);
    expect(getSyncStatus(bob.engine).setAside).toBe(1);
  });

  it('[S29] a change that cannot be sent fails `brain sync` and stays listed in status', async () => {
    const bob = await replica('bob');
    const [added] = (await bob.engine.add([bob.ws.write('ok.md', '# Ok\n\nfine\n')])).added;
    // A label longer than the protocol allows: this change can never be sent.
    bob.engine.db.prepare('UPDATE items SET label = ? WHERE id = ?').run('x'.repeat(2001), added?.id);
    const report = await syncNow(bob.engine);
    expect(report.unsent).toEqual([
      { kind: 'item', ref: added?.id, reason: expect.stringMatching(/^not sendable: item\.label/) },
    ]);
    expect(getSyncStatus(bob.engine)).toMatchObject({ refused: 1, lastRefused: { ref: added?.id } });
    // The same through the command line: the summary, then an error and exit code 1.
    bob.engine.db.prepare('UPDATE items SET label = ? WHERE id = ?').run('y'.repeat(2001), added?.id);
    const cli = await run('node', [resolve('bin/brain.mjs'), '--home', bob.engine.home, 'sync'], {
      env: { ...process.env, BRAIN_MODEL_DIR: join(bob.ws.home, 'no-model') },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^error\[refused\]: 1 local change was not sent: item .*not sendable/);
    const status = await run('node', [resolve('bin/brain.mjs'), '--home', bob.engine.home, 'status']);
    expect(status.stdout).toMatch(/not sent {3}2 local changes will not reach anyone; latest: item/);
    expect(existsSync(bob.engine.home)).toBe(true);
  });
});
