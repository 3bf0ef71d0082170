/**
 * The sync commands as scripts use them, against the in-process fake server on loopback: a fast
 * check of the client's HTTP side (the same flows run against the real server in e2e.test.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeHttpServer } from '#engine/sync/testing/fake-http.ts';
import { makeReplica, makeRoot, type StatusOut, type SyncOut } from './helpers.ts';

const fake = new FakeHttpServer();
const { root, cleanup } = makeRoot();
beforeAll(() => fake.start());
afterAll(async () => {
  await fake.stop();
  cleanup();
});

describe('[C9] brain connect / sync / invite / teams / revoke (fake server)', { timeout: 240_000 }, () => {
  it('joins two replicas, converges, evicts on team removal, refuses a revoked token', async () => {
    const admin = makeReplica(root, 'admin');
    const bob = makeReplica(root, 'bob');
    const doc = admin.write('plan.md', '# Plan\n\nThe quarterly plan mentions zebra budgets.\n');
    await admin.json('add', doc);
    await admin.json('index');
    const joined = await admin.json<{ user: string; rekeyed: { items: number } }>(
      'connect',
      fake.url,
      '--invite',
      fake.invite({ admin: true, user: 'ada' }),
    );
    expect(joined.user).toBe('ada');
    expect(joined.rekeyed.items).toBeGreaterThan(1);
    expect(statSync(join(admin.home, 'sync-token')).mode & 0o777).toBe(0o600);

    await admin.json('teams', 'create', 'ops');
    await admin.json('teams', 'add', 'ops', 'ada');
    const code = (await admin.json<{ code: string }>('invite', '--user', 'bob', '--team', 'ops')).code;
    await bob.json('connect', fake.url, '--invite', code);
    const secret = admin.write('secret.md', '# Ops\n\nOps only: the vault combination is walrus.\n');
    await admin.json('add', '--scope', 'team:ops', secret);
    await admin.json('index');
    const pushed = await admin.json<SyncOut>('sync');
    expect(pushed.pending).toBe(0);
    await bob.json<SyncOut>('sync');
    expect(bob.dump()).toEqual(admin.dump());
    const hits = await bob.json<{ hits: { label: string }[] }>('search', 'walrus');
    expect(hits.hits.length).toBeGreaterThan(0);

    await admin.json('teams', 'remove', 'ops', 'bob');
    const after = await bob.json<SyncOut>('sync');
    expect(after.evicted).toBeGreaterThan(0);
    expect(JSON.stringify(bob.dump())).not.toContain('walrus');
    const status = await bob.json<StatusOut>('status');
    expect(status.user).toBe('bob');
    expect(status.scopes).not.toContain('team:ops');
    expect(status.sync).toMatchObject({ connected: true, state: 'online', pending: 0 });

    await admin.json('revoke', 'bob');
    const refused = await bob.brain('sync', '--json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error\[forbidden\]: .*token/);
  });
});
