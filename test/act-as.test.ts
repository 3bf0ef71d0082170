/**
 * [R3] in docs/RETRIEVAL.md: acting as another member (`--as USER`) is for the local admin only,
 * and each use is recorded in the admin's Activity. Real `brain` processes on real workspaces:
 * local ones (the admin is the first local user, who made the workspace), and replicas connected
 * to the real workspace server, `brain server` (the admin is a member the server made an admin).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { makeReplica, makeRoot } from './sync/helpers.ts';
import { killServer, type ServerProcess, startServerProcess } from './sync/server-process.ts';

let ws: CliWorkspace;

type Entry = { event: string; user: string; surface: string; summary: string; data: Record<string, unknown> };

const brainAs = (localUser: string, ...args: string[]): Promise<CliResult> =>
  ws.with({ user: localUser }).brain(...args);

async function activity(localUser: string, ...global: string[]): Promise<Entry[]> {
  return (await ws.with({ user: localUser }).brainJson<{ entries: Entry[] }>(...global, 'activity')).entries;
}

const actAs = (entries: Entry[]) => entries.filter((e) => e.event === 'act-as');

beforeAll(async () => {
  ws = cliWorkspace('brain-r3-');
  writeFileSync(join(ws.files, 'plan.md'), '# Plan\n\nThe quarterly plan mentions zebra budgets.\n');
  // `tester` makes the workspace: its first local user, the local admin.
  for (const args of [['members', 'add', 'bob'], ['members', 'add', 'carol'], ['add', ws.files], ['index']]) {
    await ws.brainText(...args);
  }
});
afterAll(() => ws.remove());

describe('[R3] --as on a local workspace', () => {
  it('[R3] the local admin acts as a member, and Activity records who, as whom and which command', async () => {
    const r = await brainAs('tester', '--as', 'bob', 'search', 'zebra budgets', '--json');
    expect(r.code).toBe(0);
    const [entry] = actAs(await activity('tester'));
    expect(entry).toMatchObject({
      user: 'tester',
      surface: 'cli',
      data: { as: 'bob', by: 'tester', command: 'search', surface: 'cli' },
    });
    expect(entry?.summary).toBe('acted as bob (brain search, cli)');
    // The search itself is bob's: in bob's Activity, not in the admin's.
    const bobs = await activity('tester', '--as', 'bob');
    expect(bobs.some((e) => e.event === 'search' && e.user === 'bob')).toBe(true);
    expect(actAs(await activity('tester')).map((e) => e.data.command)).toEqual(['activity', 'search']);
  });

  it('[R3] any other member is refused with a clear error, and nothing is recorded', async () => {
    const before = actAs(await activity('tester')).length;
    const r = await brainAs('carol', '--as', 'bob', 'search', 'zebra budgets', '--json');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error\[forbidden\]: Acting as another member \(--as bob\) is for the local admin only/,
    );
    expect(r.stderr).toContain('the local admin is tester');
    expect(r.stdout).toBe('');
    // Refused alike for a member that does not exist: the refusal says nothing about who does.
    const ghost = await brainAs('carol', '--as', 'nobody', 'status', '--json');
    expect(ghost.stderr).toMatch(/^error\[forbidden\]/);
    expect(actAs(await activity('tester'))).toHaveLength(before);
    expect(actAs(await activity('carol'))).toEqual([]);
    // Acting as yourself is not acting as another member.
    expect((await brainAs('carol', '--as', 'carol', 'status', '--json')).code).toBe(0);
  });

  it('[R3] brain mcp --as: refused for a member, served and recorded for the admin', async () => {
    const refused = await brainAs('carol', '--as', 'bob', 'mcp');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/error\[forbidden\]: Acting as another member \(--as bob\)/);

    const transport = new StdioClientTransport({
      ...ws.command('--as', 'bob', 'mcp', '--agent', 'r3-agent'),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'r3', version: '1.0.0' });
    await client.connect(transport);
    try {
      const answer = (await client.callTool({
        name: 'brain_search',
        arguments: { query: 'zebra budgets' },
      })) as {
        isError?: boolean;
      };
      expect(answer.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    const [latest] = actAs(await activity('tester'));
    expect(latest).toMatchObject({ surface: 'agent', data: { as: 'bob', by: 'tester', command: 'mcp' } });
  });
});

describe('[R3] --as on a replica connected to a workspace server', () => {
  const sync = makeRoot();
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(join(sync.root, 'server-data'));
  }, 120_000);
  afterAll(async () => {
    if (server) await killServer(server, 'SIGTERM');
    sync.cleanup();
  });

  it('[R3] only a member the server made an admin may act as another', async () => {
    const admin = makeReplica(sync.root, 'admin');
    const member = makeReplica(sync.root, 'member');
    const joined = await admin.json<{ user: string; isAdmin: boolean }>(
      'connect',
      server.url,
      '--invite',
      server.invite ?? '',
    );
    expect(joined.isAdmin).toBe(true);
    const code = (await admin.json<{ code: string }>('invite', '--user', 'ben')).code;
    await member.json('connect', server.url, '--invite', code);
    for (const r of [admin, member]) await r.json('members', 'add', 'dora');

    const allowed = await admin.brain('--as', 'dora', 'status', '--json');
    expect(allowed.stderr).toBe('');
    expect(JSON.parse(allowed.stdout)).toMatchObject({ user: 'dora' });
    const entries = JSON.parse((await admin.brain('activity', '--json')).stdout).entries as Entry[];
    expect(actAs(entries)[0]).toMatchObject({
      user: joined.user,
      data: { as: 'dora', by: joined.user, command: 'status' },
    });

    const refused = await member.brain('--as', 'dora', 'status', '--json');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error\[forbidden\]: .*ben is not an admin of the workspace server/);
    // Being the replica's first local user does not make a connected member an admin.
    const local = await member.brain('--as', 'local-member', 'status', '--json');
    expect(local.stderr).toMatch(/^error\[forbidden\]/);
  });
});
