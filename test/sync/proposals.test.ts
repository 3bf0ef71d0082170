/**
 * Review proposals across replicas, with real components: engines on real SQLite files, the real
 * workspace server over HTTP on PGlite, the real write-back pass against a scripted model. A
 * member's agent run makes a review proposal on one replica; an admin decides it on another; the
 * decision (and the note an approval writes) comes back. Two decisions made offline converge on
 * the server's first one; team proposals reach only the team.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '#engine/engine.ts';
import { setModelSetting } from '#engine/llm/config.ts';
import { connect, syncNow } from '#engine/sync/index.ts';
import { type ScriptedModel, startScriptedModel, writerScript } from '#engine/testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import { approveProposal, listInbox, rejectProposal } from '#engine/writeback/inbox.ts';
import { runWritebackPass } from '#engine/writeback/pass.ts';
import { recordRunEnd } from '#engine/writeback/run-end.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { useServer } from '../server/harness.ts';
import { pgliteBackend } from '../server/support.ts';

const WORK = [
  'Looked at the supplier payment flow with the finance lead.',
  'We decided that supplier invoices above 5000 EUR need finance approval before payment.',
].join('\n\n');

const unsure = (over: Record<string, unknown> = {}) => ({
  kind: 'decision',
  label: 'Invoices need finance approval',
  body: 'Supplier invoices above 5000 EUR need approval by the finance team before payment.',
  scope: 'org',
  confidence: 0.6,
  sensitive: false,
  ...over,
});

type NoteRow = {
  id: string;
  scope: string;
  body: string;
  origin_run: string;
  origin_actor: string;
  retired_at: string | null;
};

describe('[C14] review proposals sync between replicas', { timeout: 120_000 }, () => {
  const env = useServer(pgliteBackend);
  let workspaces: TestWorkspace[] = [];
  let model: ScriptedModel | null = null;

  beforeEach(() => {
    workspaces = [];
  });
  afterEach(async () => {
    await model?.close();
    model = null;
    for (const ws of workspaces) await ws.cleanup();
  });

  /** A replica connected as `user` (invited by the server's admin). */
  async function replica(user: string, options: { admin?: boolean; teams?: string[] } = {}): Promise<Engine> {
    const ws = createTestWorkspace();
    workspaces.push(ws);
    const engine = ws.open();
    const code = await env().admin.invite({
      user,
      admin: options.admin ?? false,
      teams: options.teams ?? [],
    });
    const joined = await connect(engine, env().url, code);
    expect(joined.syncError).toBeNull();
    return engine;
  }

  /** `user`'s agent run ends on `engine`; its write-back pass proposes `proposals`. */
  async function agentRun(engine: Engine, run: string, proposals: Record<string, unknown>[]): Promise<void> {
    model ??= await startScriptedModel(writerScript(proposals));
    await setModelSetting(engine.db, engine.home, 'model.baseUrl', model.url);
    await setModelSetting(engine.db, engine.home, 'model.name', 'scripted');
    recordRunEnd(engine.db, {
      run,
      workspaceId: engine.workspaceId,
      user: engine.user,
      agent: 'claude-code',
      status: 'succeeded',
      workProducts: WORK,
      startedAt: null,
    });
    const pass = await runWritebackPass(engine, run);
    expect(pass.state).toBe('done');
  }

  /** Sync rounds on every replica until nothing is left to send. */
  async function settle(...engines: Engine[]): Promise<void> {
    for (let round = 0; round < 4; round++) {
      let pending = 0;
      for (const e of engines) pending += (await syncNow(e)).pending;
      if (pending === 0 && round > 0) return;
    }
  }

  const as = (e: Engine) => ({ db: e.db, workspaceId: e.workspaceId, user: e.user, surface: 'cli' as const });
  const proposals = (e: Engine): ProposalView[] => listInbox(e.db, e.user, { all: true }).items;
  const note = (e: Engine, id: string | null) =>
    e.db
      .prepare('SELECT id, scope, body, origin_run, origin_actor, retired_at FROM items WHERE id = ?')
      .get(id) as NoteRow | undefined;

  it('a member’s review proposal reaches an admin with its run; the edited approval comes back with its note', async () => {
    const alice = await replica('alice');
    const boss = await replica('boss', { admin: true });
    await agentRun(alice, 'run-pay', [unsure()]);
    const [mine] = proposals(alice);
    expect(mine).toMatchObject({ state: 'pending', decision: 'review', canDecide: false });
    await settle(alice, boss);

    const inbox = listInbox(boss.db, boss.user);
    expect(inbox.pending).toBe(1);
    const card = inbox.items[0];
    expect(card).toMatchObject({
      id: mine?.id,
      label: 'Invoices need finance approval',
      body: mine?.body,
      scope: 'org',
      confidence: 0.6,
      reason: mine?.reason,
      canDecide: true,
      run: { id: 'run-pay', agent: 'claude-code', user: 'alice', status: 'succeeded' },
    });
    expect(card?.run?.excerpt).toContain('5000 EUR need finance approval');

    const edited = 'Supplier invoices above 1000 EUR need finance approval (edited by boss).';
    const approved = approveProposal(as(boss), card?.id ?? '', { body: edited });
    await settle(boss, alice);

    const back = proposals(alice).find((p) => p.id === mine?.id);
    expect(back).toMatchObject({
      state: 'approved',
      body: edited,
      edited: true,
      decidedBy: 'boss',
      itemId: approved.itemId,
      canDecide: false,
    });
    expect(note(alice, approved.itemId)).toMatchObject({
      scope: 'org',
      body: edited,
      origin_run: 'run-pay',
      origin_actor: 'boss',
      retired_at: null,
    });
    expect(listInbox(alice.db, alice.user).items).toEqual([]);
  });

  it('a rejection with its reason comes back the same way', async () => {
    const alice = await replica('alice');
    const boss = await replica('boss', { admin: true });
    await agentRun(alice, 'run-rej', [unsure()]);
    await settle(alice, boss);
    const [card] = listInbox(boss.db, boss.user).items;
    rejectProposal(as(boss), card?.id ?? '', 'we pay on receipt now');
    await settle(boss, alice);
    expect(proposals(alice)[0]).toMatchObject({
      state: 'rejected',
      rejectReason: 'we pay on receipt now',
      decidedBy: 'boss',
      itemId: null,
    });
    expect(alice.db.prepare("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'note'").get()).toEqual({
      n: 0,
    });
  });

  it('two admins deciding offline converge on the server’s first decision; the losing approval’s note is retired', async () => {
    const alice = await replica('alice', { admin: true });
    const boss = await replica('boss', { admin: true });
    await agentRun(alice, 'run-race', [unsure()]);
    await settle(alice, boss);
    const id = proposals(alice)[0]?.id ?? '';
    // Both decide before either syncs: alice approves, boss rejects; boss reaches the server first.
    const approved = approveProposal(as(alice), id);
    rejectProposal(as(boss), id, 'duplicate of the finance policy');
    await syncNow(boss);
    const round = await syncNow(alice);
    expect(round.refused).toBe(1);
    const refusal = alice.db.prepare("SELECT reason FROM sync_refused WHERE kind = 'decide'").get() as {
      reason: string;
    };
    expect(refusal.reason).toBe(`proposal ${id} was already rejected by boss`);
    await settle(alice, boss);

    for (const e of [alice, boss]) {
      expect(proposals(e)[0]).toMatchObject({ state: 'rejected', decidedBy: 'boss', itemId: null });
      expect(note(e, approved.itemId)?.retired_at).toEqual(expect.any(String));
    }
    expect(note(alice, approved.itemId)).toEqual(note(boss, approved.itemId));
    const logged = alice.db
      .prepare("SELECT data FROM telemetry WHERE event = 'inbox.decision.overruled'")
      .get() as {
      data: string;
    };
    expect(JSON.parse(logged.data)).toMatchObject({ proposal: id, note: 'retired', winner: { by: 'boss' } });
  });

  it('pulling everything again changes nothing', async () => {
    const alice = await replica('alice');
    const boss = await replica('boss', { admin: true });
    await agentRun(alice, 'run-again', [
      unsure(),
      unsure({ label: 'Second rule', body: 'Refunds above 200 EUR need a second signature.' }),
    ]);
    await settle(alice, boss);
    const [first] = listInbox(boss.db, boss.user).items;
    approveProposal(as(boss), first?.id ?? '');
    await settle(boss, alice);
    const before = proposals(boss);
    boss.db.prepare('UPDATE sync_state SET cursor = 0, pull_page = NULL WHERE id = 1').run();
    const again = await syncNow(boss);
    expect(again.proposals).toBe(0);
    expect(again.pending).toBe(0);
    expect(proposals(boss)).toEqual(before);
  });

  it('team proposals reach the team only: joining brings them, leaving takes them away', async () => {
    const alice = await replica('alice', { teams: ['ops'] });
    const boss = await replica('boss', { admin: true });
    const carol = await replica('carol');
    await agentRun(alice, 'run-team', [
      unsure({ scope: 'team:ops', label: 'Ops runbook owner' }),
      unsure({ scope: 'user', label: 'Alice prefers morning deploys' }),
    ]);
    expect(
      proposals(alice)
        .map((p) => p.scope)
        .sort(),
    ).toEqual(['team:ops', 'user:alice']);
    await settle(alice, boss, carol);
    expect(proposals(carol)).toEqual([]);
    expect(proposals(boss)).toEqual([]);
    expect(boss.db.prepare('SELECT COUNT(*) AS n FROM proposals').get()).toEqual({ n: 0 });

    await env().admin.addToTeam('ops', 'carol');
    const joined = await syncNow(carol);
    expect(joined.proposals).toBe(1);
    expect(proposals(carol).map((p) => [p.scope, p.label, p.run?.agent])).toEqual([
      ['team:ops', 'Ops runbook owner', 'claude-code'],
    ]);
    await env().admin.removeFromTeam('ops', 'carol');
    const left = await syncNow(carol);
    expect(left.proposals).toBe(1);
    expect(carol.db.prepare('SELECT COUNT(*) AS n FROM proposals').get()).toEqual({ n: 0 });
  });
});
