import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outputs } from '#shared/api/contract.ts';
import type { EventName } from '#shared/api/events.ts';
import { buildProposalOp } from '../../../test/server/factories.ts';
import { type RunningServer, startServer } from '../../server/main.ts';
import { createInvitation } from '../sync/index.ts';
import { HttpTransport } from '../sync/transport.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { BrainHost } from './host.ts';

let ws: TestWorkspace | null = null;
let host: BrainHost | null = null;
let server: RunningServer | null = null;
let dataDir: string | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  await server?.close();
  server = null;
  await ws?.cleanup();
  ws = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = null;
});

async function ok<N extends keyof Outputs>(h: BrainHost, name: N, input?: unknown): Promise<Outputs[N]> {
  const r = await h.invoke(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.data as Outputs[N];
}

describe('sync commands', () => {
  it('connects with an invitation, lists members, syncs and leaves', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'brain-sync-server-'));
    server = await startServer({ dataDir, port: 0, logger: false });
    expect(server.firstInvite).toBeTruthy();
    ws = createTestWorkspace();
    host = await BrainHost.start(ws.open(), { version: 'test' });
    const events: EventName[] = [];
    host.on((event) => events.push(event));

    const before = await ok(host, 'sync.status', {});
    expect(before).toMatchObject({ connected: false, server: null });
    expect((await ok(host, 'status.get')).sync?.connected).toBe(false);

    const connected = await ok(host, 'sync.connect', { url: server.url, code: server.firstInvite });
    expect(connected.isAdmin).toBe(true);
    expect(connected.status.connected).toBe(true);
    expect(events).toContain('status.changed');
    expect(events).toContain('files.changed');

    const status = await ok(host, 'sync.status');
    expect(status).toMatchObject({ connected: true, isAdmin: true, user: connected.user });
    expect(status.server).toBeTruthy();
    expect((await ok(host, 'status.get')).sync?.connected).toBe(true);

    const members = await ok(host, 'sync.members');
    expect(members.members.map((m) => m.user)).toContain(connected.user);
    expect(members.members.find((m) => m.user === connected.user)?.isAdmin).toBe(true);

    // The round's report, and the status after it.
    const afterNow = await ok(host, 'sync.now', {});
    expect(afterNow.unsent).toEqual([]);
    expect(afterNow.status).toMatchObject({ connected: true, state: 'online' });
    expect(afterNow.status.lastSync).toBeTruthy();

    const left = await ok(host, 'sync.leave');
    expect(left.unsent).toBe(0);
    expect(await ok(host, 'sync.status')).toMatchObject({ connected: false });
  }, 60_000);

  it('refuses a bad invitation with a readable message', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'brain-sync-server-'));
    server = await startServer({ dataDir, port: 0, logger: false });
    ws = createTestWorkspace();
    host = await BrainHost.start(ws.open(), { version: 'test' });
    const r = await host.invoke('sync.connect', { url: server.url, code: 'not-a-real-invitation' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message.length).toBeGreaterThan(5);
    expect(await ok(host, 'sync.status')).toMatchObject({ connected: false });

    const invalid = await host.invoke('sync.connect', { url: 'not a url', code: 'abcdefgh' });
    expect(invalid.ok).toBe(false);
  }, 60_000);

  it('tells the inbox when a round pulled proposals', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'brain-sync-server-'));
    server = await startServer({ dataDir, port: 0, logger: false });
    ws = createTestWorkspace();
    host = await BrainHost.start(ws.open(), { version: 'test' });
    await ok(host, 'sync.connect', { url: server.url, code: server.firstInvite });
    // A member's replica sends a review proposal.
    const { code } = await createInvitation(host.engine, { user: 'bob' });
    const bob = new HttpTransport(
      server.url,
      (await new HttpTransport(server.url, null).redeem(code, 'bob')).token,
    );
    const id = randomUUID();
    const pushed = await bob.push({
      ops: [
        buildProposalOp(id, 'org', {
          hlc: `${Date.now()}-000000-bob`,
          proposal: { user_id: 'bob', run: null },
        }),
      ],
    });
    expect(pushed.refused).toEqual([]);
    const events: EventName[] = [];
    host.on((event) => events.push(event));
    await ok(host, 'sync.now', {});
    expect(events).toContain('inbox.changed');
    const inbox = await ok(host, 'inbox.list', {});
    expect(inbox.items.map((i) => [i.id, i.canDecide, i.run])).toEqual([[id, true, null]]);
    events.length = 0;
    await ok(host, 'sync.now', {});
    expect(events).not.toContain('inbox.changed');
  }, 60_000);
});
