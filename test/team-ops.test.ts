/**
 * The team operations (src/shared/api/ops/team.ts) with real components: engines on real files
 * and the workspace server in-process on PGlite. What the parity table (test/parity/team.cases.ts)
 * cannot show without a server: a replica that joins as an admin makes teams, invites, changes
 * membership and revokes through the contract, and the member it revoked is refused ([S32] in
 * docs/SYNC_SPEC.md). And what holds on every surface: the model key never comes back, agents
 * cannot call any of them, and the app hears of a round even when it failed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run, runCommand } from '#engine/commands/index.ts';
import { type CommandContext, memberContext } from '#engine/commands/types.ts';
import { BrainHost } from '#engine/host/host.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import type { EventName } from '#shared/api/events.ts';
import * as Team from '#shared/api/ops/team.ts';
import { useServer } from './server/harness.ts';
import { pgliteBackend } from './server/support.ts';

let workspaces: TestWorkspace[] = [];
afterEach(async () => {
  for (const ws of workspaces) await ws.cleanup();
  workspaces = [];
});

function workspace(): TestWorkspace {
  const ws = createTestWorkspace();
  workspaces.push(ws);
  return ws;
}

describe('team operations with a workspace server', { timeout: 120_000 }, () => {
  const env = useServer(pgliteBackend);

  it('an admin makes a team, invites into it, changes it and revokes a member', async () => {
    const ada = memberContext(workspace().open(), 'app');
    const code = await env().admin.invite({ user: 'ada', admin: true });
    const joined = await run(ada, Team.SyncConnect, { url: env().url, code, device: 'ada-laptop' });
    expect(joined).toMatchObject({
      user: 'ada',
      isAdmin: true,
      syncError: null,
      status: { connected: true },
    });
    expect(joined.sync?.unsent).toEqual([]);

    expect(await run(ada, Team.TeamsCreate, { team: 'ops' })).toEqual({ team: 'ops' });
    expect(await run(ada, Team.TeamsAdd, { team: 'ops', user: 'ada' })).toEqual({ team: 'ops', user: 'ada' });
    // The acting member's own teams apply to local scope checks at once, before the next round.
    expect(ada.engine.scopes()).toContain('team:ops');

    const invitation = await run(ada, Team.MembersInvite, { user: 'bob', teams: ['ops'] });
    expect(invitation.user).toBe('bob');
    const bob = memberContext(workspace().open(), 'cli');
    expect((await run(bob, Team.SyncConnect, { url: env().url, code: invitation.code })).user).toBe('bob');

    const members = await run(ada, Team.SyncMembers, {});
    expect(members.members.find((m) => m.user === 'bob')).toMatchObject({ teams: ['ops'], devices: 1 });
    expect(members.teams.find((t) => t.id === 'ops')?.members.sort()).toEqual(['ada', 'bob']);

    expect(await run(ada, Team.TeamsRemove, { team: 'ops', user: 'bob' })).toEqual({
      team: 'ops',
      user: 'bob',
    });
    expect(await run(ada, Team.MembersRevoke, { user: 'bob' })).toEqual({ revoked: 'bob' });
    await expect(run(bob, Team.SyncNow, {})).rejects.toMatchObject({ code: 'forbidden' });

    const round = await run(ada, Team.SyncNow, {});
    expect(round).toMatchObject({ unsent: [], status: { connected: true, state: 'online' } });
    expect(await run(ada, Team.SyncLeave, {})).toEqual({ left: env().url, unsent: 0 });
    expect((await run(ada, Team.SyncStatus, {})).connected).toBe(false);
  });
});

describe('team operations on every surface', () => {
  it('never return the model key, only whether one is set', async () => {
    const engine = workspace().open();
    for (const surface of ['app', 'cli'] as const) {
      const ctx = memberContext(engine, surface);
      const set = await run(ctx, Team.ChatModelSet, { key: `sk-team-secret-${surface}` });
      const got = await run(ctx, Team.ChatModelGet, {});
      expect(JSON.stringify([set, got])).not.toContain('sk-team-secret');
      expect(got.hasKey).toBe(true);
    }
    // The output schema is the guard: a key in a view would be dropped, not sent.
    const view = await run(memberContext(engine, 'app'), Team.ChatModelGet, {});
    expect(Team.ChatModelGet.output.parse({ ...view, key: 'sk-leak' })).not.toHaveProperty('key');
  });

  it('are refused to agents, whatever the input', async () => {
    const engine = workspace().open();
    const agent: CommandContext = {
      engine,
      surface: 'agent',
      origin: { actor: engine.user, source: 'agent', run: 'r1' },
    };
    for (const op of Team.TEAM_OPERATIONS) {
      await expect(runCommand(agent, op.name, {}), op.name).rejects.toMatchObject({ code: 'not-found' });
    }
  });

  it('tell the app after a round, a failed one too, and after the chat model changed', async () => {
    const host = await BrainHost.start(workspace().open(), { version: 'test' });
    try {
      const events: EventName[] = [];
      host.on((event) => events.push(event));
      const failed = await host.invoke('sync.now', {});
      expect(failed).toMatchObject({ ok: false, error: { code: 'refused' } });
      expect(events).toContain('status.changed');
      expect(events).toContain('files.changed');
      events.length = 0;
      expect((await host.invoke('chatModel.set', { model: 'scripted' })).ok).toBe(true);
      expect(events).toContain('status.changed');
    } finally {
      await host.close();
    }
  });
});
