/**
 * End to end with the real workspace server on loopback (`brain server` as a child process) and
 * replicas as `brain` processes with their own BRAIN_HOME: convergence to equal scope-filtered
 * dumps, offline edits, the same source giving the same item, team removal evicting, a revoked
 * token refused, and a server killed in the middle of a push losing and duplicating nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport } from '#engine/sync/transport.ts';
import type { PulledOp } from '#shared/sync/protocol.ts';
import { makeReplica, makeRoot, type Replica, type StatusOut, type SyncOut } from './helpers.ts';
import { startPushGate } from './push-gate.ts';
import { killServer, type ServerProcess, startServerProcess } from './server-process.ts';

type ConnectOut = { user: string; isAdmin: boolean; sync: SyncOut | null; syncError: string | null };

function markdown(title: string, words: string): string {
  return `# ${title}\n\nThis document is about ${words}.\n\n## Details\n\nMore about ${words} here.\n`;
}

function countOutbox(r: Replica): number {
  const db = new Database(join(r.home, 'brain.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM sync_outbox').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function pullEverything(url: string, token: string): Promise<PulledOp[]> {
  const t = new HttpTransport(url, token);
  const out: PulledOp[] = [];
  let after = 0;
  for (;;) {
    const page = await t.pull(after, 1000);
    out.push(...page.ops);
    if (!page.more || page.cursor <= after) return out;
    after = page.cursor;
  }
}

// Many `brain` processes per test: generous timeouts, for a loaded CI machine.
describe('[C10] sync end to end with the real server', { timeout: 240_000 }, () => {
  const { root, cleanup } = makeRoot();
  const data = join(root, 'server-data');
  let server: ServerProcess;
  let admin: Replica;
  let bob: Replica;
  let carol: Replica;

  beforeAll(async () => {
    server = await startServerProcess(data);
    admin = makeReplica(root, 'admin');
    bob = makeReplica(root, 'bob');
    carol = makeReplica(root, 'carol');
  }, 120_000);
  afterAll(async () => {
    if (server) await killServer(server, 'SIGTERM');
    cleanup();
  });

  async function restart(): Promise<void> {
    server = await startServerProcess(data, server.port);
  }

  it('joins replicas (re-keying local items); two members adding the same path hold two items ([S25])', async () => {
    expect(server.invite).toBeTruthy();
    const shared = join(root, 'shared.md');
    admin.write('../shared.md', markdown('Shared', 'pelican logistics'));
    // bob adds the file before joining (re-keyed on connect), admin after: the same path, but each
    // member's file is their own item ([S25]); both are in org, so each replica holds both.
    const bobAdded = await bob.json<{ added: { id: string }[] }>('add', shared);
    const a = await admin.json<ConnectOut>('connect', server.url, '--invite', server.invite ?? '');
    expect(a.isAdmin).toBe(true);
    expect(a.syncError).toBeNull();
    await admin.json('teams', 'create', 'ops');
    await admin.json('teams', 'add', 'ops', a.user);
    const bobCode = (await admin.json<{ code: string }>('invite', '--user', 'bob', '--team', 'ops')).code;
    const carolCode = (await admin.json<{ code: string }>('invite', '--user', 'carol')).code;
    const b = await bob.json<ConnectOut>('connect', server.url, '--invite', bobCode);
    expect(b.user).toBe('bob');
    expect(b.syncError).toBeNull();
    await carol.json<ConnectOut>('connect', server.url, '--invite', carolCode);
    const added = await admin.json<{ added: { id: string }[]; unchanged: { id: string }[] }>('add', shared);
    await admin.json('sync');
    await bob.json('sync');
    const adminFile = [...added.added, ...added.unchanged][0]?.id;
    const bobIds = bob.dump().items.map((i) => (i as { id: string }).id);
    expect(bobIds).toContain(adminFile);
    expect(bobIds).toHaveLength(2);
    expect(adminFile).not.toBe(bobAdded.added[0]?.id);
  });

  it('edits on each replica converge to the same scope-filtered state', async () => {
    // replicas are separate processes: their edits run side by side
    await Promise.all([
      (async () => {
        await admin.json('add', admin.write('org-plan.md', markdown('Plan', 'quarterly zebra budgets')));
        await admin.json(
          'add',
          '--scope',
          'team:ops',
          admin.write('ops-runbook.md', markdown('Runbook', 'walrus vault rotation')),
        );
        await admin.json('index');
      })(),
      (async () => {
        await bob.json('add', bob.write('bob-notes.md', markdown('Bob', 'heron migration')));
        await bob.json('index');
      })(),
      (async () => {
        await carol.json(
          'add',
          '--scope',
          'user:carol',
          carol.write('carol.md', markdown('Carol', 'private otter')),
        );
        await carol.json('add', carol.write('carol-org.md', markdown('Carol org', 'public badger')));
        await carol.json('index');
      })(),
    ]);
    // two rounds on every replica at once: after the first everything is on the server
    for (let pass = 0; pass < 2; pass++)
      await Promise.all([admin, bob, carol].map((r) => r.json<SyncOut>('sync')));

    const opsView = ['org', 'team:ops'];
    expect(bob.dump(opsView)).toEqual(admin.dump(opsView));
    expect(carol.dump(['org'])).toEqual(admin.dump(['org']));
    expect(JSON.stringify(carol.dump())).not.toContain('walrus');
    expect(JSON.stringify(admin.dump())).not.toContain('private otter');
    const hits = await bob.json<{ hits: { label: string }[] }>('search', 'badger');
    expect(hits.hits.length).toBeGreaterThan(0);
    // the bytes came along: bob can read carol's file
    const file = (bob.dump().items as { id: string; label: string; storage_kind: string }[]).find(
      (i) => i.label === 'carol-org.md' && i.storage_kind === 'file',
    );
    const read = await bob.json<{ text: string }>('read', file?.id ?? '');
    expect(read.text).toContain('public badger');
  });

  it('edits made offline arrive after reconnection', async () => {
    await killServer(server);
    await carol.json('add', carol.write('offline.md', markdown('Offline', 'lighthouse keeper')));
    await carol.json('index');
    const failed = await carol.brain('sync', '--json');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error\[sync-offline\]/);
    const status = await carol.json<StatusOut>('status');
    expect(status.sync.state).toBe('offline');
    expect(status.sync.pending).toBeGreaterThan(0);
    await restart();
    const done = await carol.json<SyncOut>('sync');
    expect(done.pending).toBe(0);
    await admin.json('sync');
    expect(JSON.stringify(admin.dump())).toContain('lighthouse keeper');
    expect((await carol.json<StatusOut>('status')).sync.state).toBe('online');
  });

  it('removing a user from a team removes that team’s items from their replica', async () => {
    expect(JSON.stringify(bob.dump())).toContain('walrus');
    await admin.json('teams', 'remove', 'ops', 'bob');
    const out = await bob.json<SyncOut>('sync');
    expect(out.evicted ?? 0).toBeGreaterThan(0);
    expect(JSON.stringify(bob.dump())).not.toContain('walrus');
    expect((await bob.json<StatusOut>('status')).scopes).not.toContain('team:ops');
    expect(bob.dump(['org'])).toEqual(admin.dump(['org']));
  });

  it('a revoked token is refused', async () => {
    await admin.json('revoke', 'carol');
    const r = await carol.brain('sync', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error\[forbidden\]/);
  });

  it('killing the server mid-push and restarting it loses nothing and duplicates nothing', async () => {
    const dave = makeReplica(root, 'dave');
    // Dave's replica talks to the server through a gate that holds his second push: the server is
    // killed while that push is in flight, after the first was acknowledged.
    const gate = await startPushGate(() => server.url, 2);
    const code = (await admin.json<{ code: string }>('invite', '--user', 'dave')).code;
    await dave.json('connect', gate.url, '--invite', code);
    for (let i = 0; i < 120; i++) dave.write(`bulk-${i}.md`, markdown(`Bulk ${i}`, `bulkword${i} cargo`));
    await dave.json('add', dave.files);
    await dave.json('index');
    const before = dave.dump();
    const byDave = (rows: unknown[]) =>
      rows.filter((r) => (r as { origin_actor: string }).origin_actor === 'dave');
    const total = byDave(before.items).length + byDave(before.edges).length;
    expect(total).toBeGreaterThan(500); // more than one push batch
    const sync = dave.brain('sync', '--json');
    await gate.held;
    const killedAt = countOutbox(dave);
    await killServer(server);
    gate.release();
    const cut = await sync;
    expect(cut.code).toBe(1);
    expect(killedAt).toBeGreaterThan(0);
    expect(killedAt).toBeLessThan(total);
    await restart();
    const done = await dave.json<SyncOut>('sync');
    expect(done.pending).toBe(0);
    // the server holds each of dave's operations exactly once: one per item and edge (each changed once)
    const ops = await pullEverything(server.url, readFileSync(join(dave.home, 'sync-token'), 'utf8').trim());
    const mine = ops.filter((o) => o.actor === 'dave');
    expect(new Set(mine.map((o) => o.op.id)).size).toBe(mine.length);
    expect(mine.length).toBe(total);
    // and a new device holds exactly what dave has
    const eve = makeReplica(root, 'eve');
    const eveCode = (await admin.json<{ code: string }>('invite', '--user', 'eve')).code;
    await eve.json('connect', server.url, '--invite', eveCode);
    expect(eve.dump(['org'])).toEqual(dave.dump(['org']));
    await admin.json('sync');
    expect(admin.dump(['org'])).toEqual(dave.dump(['org']));
    await gate.close();
    console.log(`mid-push kill with ${killedAt} of ${total} operations still unacknowledged`);
  });
});
