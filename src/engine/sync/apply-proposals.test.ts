/** Review proposals on a replica: recorded for the outbox, applied from pulls, the server's decision wins. */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Op, OpSchema, type PulledOp, type SyncProposal } from '#shared/sync/protocol.ts';
import { writeTx } from '../db/driver.ts';
import { ownedItemId } from '../ids.ts';
import { getRow } from '../read/items.ts';
import { approveProposal, listInbox, rejectProposal } from '../writeback/inbox.ts';
import { applyPage } from './apply.ts';
import { freezeChanges, nextBatch, recordAll } from './outbox.ts';
import { syncProposalOf } from './proposals.ts';
import { createReplica, type TestReplica } from './testing/replica.ts';

const open: TestReplica[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.close();
});

/** A replica whose user is a workspace admin (the server said so). */
function replica(name: string, options: { connected?: boolean; admin?: boolean } = {}): TestReplica {
  const r = createReplica(name, name, options);
  if (options.admin) r.db.prepare('UPDATE sync_state SET is_admin = 1 WHERE id = 1').run();
  open.push(r);
  return r;
}

const WORK = 'Setup notes.\n\nWe decided that supplier invoices above 5000 EUR need finance approval.';

/** A run and its proposals as the write-back pass stores them (one review, one skip, one write). */
function endRunWithProposals(r: TestReplica, run = 'run-1'): string {
  const id = randomUUID();
  writeTx(r.db, () => {
    r.db
      .prepare(
        `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, ended_at, updated_at)
         VALUES (?, ?, ?, 'test-agent', 'succeeded', ?, 'done', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
      )
      .run(run, r.workspaceId, r.user, WORK);
    const insert = r.db.prepare(
      `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, decision, reason,
         state, created_at) VALUES (?, ?, ?, ?, 'decision', ?, ?, 'org', ?, ?, ?, ?, '2026-01-01T00:00:00Z')`,
    );
    insert.run(
      id,
      run,
      0,
      r.user,
      'Invoice approval',
      'Invoices above 5000 EUR need finance approval.',
      0.6,
      'review',
      'low confidence',
      'pending',
    );
    insert.run(randomUUID(), run, 1, r.user, 'x', 'y', 0.9, 'skip', 'nonsense', 'skipped');
    insert.run(
      randomUUID(),
      run,
      2,
      r.user,
      'Fact',
      'Written straight in.',
      0.9,
      'write',
      'confident',
      'written',
    );
  });
  return id;
}

function outbox(r: TestReplica): Op[] {
  return nextBatch(r.db, 100, 10_000_000).map((e) => OpSchema.parse(JSON.parse(e.body)));
}

function apply(r: TestReplica, ops: PulledOp[], evict: string[] = []) {
  return writeTx(r.db, () =>
    applyPage({ db: r.db, workspaceId: r.workspaceId, localModel: null }, { ops, evict }),
  );
}

let seq = 0;
const pulled = (op: Op, actor = 'alice'): PulledOp => ({ seq: ++seq, actor, op });
const H = (n: number) => `${String(1_767_225_600_000 + n).padStart(13, '0')}-000000-srv`;

function createOp(proposal: SyncProposal): Extract<Op, { kind: 'proposal.upsert' }> {
  return { id: randomUUID(), hlc: H(1), kind: 'proposal.upsert', scope: proposal.scope, proposal };
}

function decideOp(
  id: string,
  over: Partial<Extract<Op, { kind: 'proposal.decide' }>> = {},
): Extract<Op, { kind: 'proposal.decide' }> {
  return {
    id: randomUUID(),
    hlc: H(2),
    kind: 'proposal.decide',
    scope: 'org',
    proposalId: id,
    decision: 'rejected',
    reason: 'not a rule any more',
    label: 'Invoice approval',
    body: 'Invoices above 5000 EUR need finance approval.',
    edited: false,
    itemId: null,
    decidedAt: '2026-01-02T00:00:00.000Z',
    ...over,
  };
}

/** The proposal `alice` made, as it travels. */
function aliceProposal(): SyncProposal {
  const alice = replica('alice');
  const id = endRunWithProposals(alice);
  const row = alice.db.prepare('SELECT * FROM proposals WHERE id = ?').get(id);
  return syncProposalOf(alice.db, row as Parameters<typeof syncProposalOf>[1]);
}

const state = (r: TestReplica, id: string) =>
  r.db
    .prepare(
      'SELECT state, label, body, edited, item_id, decided_by, reject_reason FROM proposals WHERE id = ?',
    )
    .get(id);

describe('[C12] [S23] proposals in the outbox', () => {
  it('records a review proposal and its decision while connected; skipped and written ones stay local', () => {
    const r = replica('alice', { admin: true });
    const id = endRunWithProposals(r);
    expect(r.db.prepare('SELECT kind, ref FROM sync_changes').all()).toEqual([{ kind: 'proposal', ref: id }]);
    freezeChanges(r.db);
    const [create] = outbox(r);
    expect(create).toMatchObject({
      kind: 'proposal.upsert',
      scope: 'org',
      proposal: {
        id,
        decision: 'review',
        reason: 'low confidence',
        run: { agent: 'test-agent', status: 'succeeded', user: 'alice', work_products: WORK },
      },
    });
    const decided = approveProposal(
      { db: r.db, workspaceId: r.workspaceId, user: 'alice', surface: 'cli' },
      id,
      { body: 'Invoices above 1000 EUR need finance approval.' },
    );
    freezeChanges(r.db);
    // the note before the decision that names it
    const [, note, decide] = outbox(r);
    expect(note).toMatchObject({ kind: 'item.upsert', item: { id: decided.itemId, origin_run: 'run-1' } });
    expect(decide).toMatchObject({
      kind: 'proposal.decide',
      scope: 'org',
      proposalId: id,
      decision: 'approved',
      body: 'Invoices above 1000 EUR need finance approval.',
      edited: true,
      itemId: decided.itemId,
      reason: null,
    });
  });

  it('records nothing before connecting; joining records pending and decided review proposals', () => {
    const r = replica('solo', { connected: false, admin: true });
    const pending = endRunWithProposals(r, 'run-1');
    const decided = endRunWithProposals(r, 'run-2');
    r.db
      .prepare(
        "UPDATE proposals SET state = 'rejected', reject_reason = 'no', decided_by = 'solo' WHERE id = ?",
      )
      .run(decided);
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM sync_changes').get()).toEqual({ n: 0 });
    writeTx(r.db, () => recordAll(r.db));
    const changes = r.db
      .prepare("SELECT kind, ref FROM sync_changes WHERE kind != 'item' ORDER BY kind, ref")
      .all();
    expect(changes).toEqual([
      { kind: 'decide', ref: decided },
      ...[pending, decided].sort().map((ref) => ({ kind: 'proposal', ref })),
    ]);
    r.db.prepare("UPDATE sync_state SET server = 'http://fake' WHERE id = 1").run();
    freezeChanges(r.db);
    expect(outbox(r).map((o) => o.kind)).toEqual(['proposal.upsert', 'proposal.upsert', 'proposal.decide']);
  });
});

describe('[C13] [S23] applying pulled proposals', () => {
  it('a pulled proposal is pending with its run: the inbox card shows the run and an excerpt', () => {
    const proposal = aliceProposal();
    const boss = replica('boss', { admin: true });
    const op = pulled(createOp(proposal));
    expect(apply(boss, [op])).toMatchObject({ applied: 1, proposals: 1 });
    expect(apply(boss, [op])).toMatchObject({ applied: 0, proposals: 0 });
    const inbox = listInbox(boss.db, 'boss');
    expect(inbox.pending).toBe(1);
    expect(inbox.items[0]).toMatchObject({
      id: proposal.id,
      label: 'Invoice approval',
      reason: 'low confidence',
      canDecide: true,
      run: { id: 'run-1', agent: 'test-agent', user: 'alice' },
    });
    expect(inbox.items[0]?.run?.excerpt).toContain('5000 EUR');
    // Applying is quiet: nothing to send back.
    expect(boss.db.prepare('SELECT COUNT(*) AS n FROM sync_changes').get()).toEqual({ n: 0 });
  });

  it('a run of the same name on two devices: both proposals are kept, each with its own run and note', () => {
    const proposal = aliceProposal(); // alice's run-1
    const boss = replica('boss', { admin: true });
    const own = endRunWithProposals(boss); // boss's agent also named its run run-1
    expect(apply(boss, [pulled(createOp(proposal))])).toMatchObject({ applied: 1, proposals: 1 });
    const inbox = listInbox(boss.db, 'boss');
    const theirs = inbox.items.find((i) => i.id === proposal.id);
    const mine = inbox.items.find((i) => i.id === own);
    expect(theirs?.run).toMatchObject({ id: 'run-1', user: 'alice' });
    expect(mine?.run).toMatchObject({ id: 'run-1', user: 'boss' });
    const decider = { db: boss.db, workspaceId: boss.workspaceId, user: 'boss', surface: 'cli' as const };
    const a = approveProposal(decider, proposal.id);
    const b = approveProposal(decider, own, { body: 'Edited: invoices above 5000 EUR need approval.' });
    expect(a.itemId).not.toBe(b.itemId);
    expect(getRow(boss.db, a.itemId!)?.body).toBe('Invoices above 5000 EUR need finance approval.');
    expect(getRow(boss.db, b.itemId!)?.body).toBe('Edited: invoices above 5000 EUR need approval.');
  });

  it('a decision before its proposal, twice, or in any order, ends the same', () => {
    const proposal = aliceProposal();
    const create = pulled(createOp(proposal));
    const decide = pulled(decideOp(proposal.id), 'boss');
    const orders = [
      [create, decide],
      [decide, create],
      [decide, decide, create, create, decide],
    ];
    const ends = orders.map((ops, i) => {
      const r = replica(`order${i}`);
      for (const op of ops) apply(r, [op]);
      return state(r, proposal.id);
    });
    expect(ends[0]).toEqual({
      state: 'rejected',
      label: 'Invoice approval',
      body: 'Invoices above 5000 EUR need finance approval.',
      edited: 0,
      item_id: null,
      decided_by: 'boss',
      reject_reason: 'not a rule any more',
    });
    expect(ends[1]).toEqual(ends[0]);
    expect(ends[2]).toEqual(ends[0]);
  });

  it('its own decision coming back changes nothing', () => {
    const r = replica('alice', { admin: true });
    const id = endRunWithProposals(r);
    rejectProposal({ db: r.db, workspaceId: r.workspaceId, user: 'alice', surface: 'cli' }, id, 'stale');
    freezeChanges(r.db);
    const mine = outbox(r).find((o) => o.kind === 'proposal.decide');
    if (!mine) throw new Error('no decision in the outbox');
    const before = state(r, id);
    expect(apply(r, [pulled(mine, 'alice')])).toMatchObject({ applied: 0 });
    expect(state(r, id)).toEqual(before);
  });

  it('the server’s decision overrules a local approval: its note is retired and sent, and the user told', () => {
    const r = replica('alice', { admin: true });
    const id = endRunWithProposals(r);
    const approved = approveProposal(
      { db: r.db, workspaceId: r.workspaceId, user: 'alice', surface: 'cli' },
      id,
    );
    freezeChanges(r.db);
    expect(apply(r, [pulled(decideOp(id), 'boss')])).toMatchObject({ applied: 1, proposals: 1 });
    expect(state(r, id)).toMatchObject({ state: 'rejected', decided_by: 'boss', item_id: null });
    expect(getRow(r.db, approved.itemId ?? '')?.retired_at).not.toBeNull();
    freezeChanges(r.db);
    const sent = outbox(r);
    // the losing decision is not sent; the retired note is
    expect(sent.filter((o) => o.kind === 'proposal.decide')).toEqual([]);
    const note = sent.filter((o) => o.kind === 'item.upsert').at(-1);
    expect(note).toMatchObject({ item: { id: approved.itemId, retired_at: expect.any(String) } });
    const logged = r.db
      .prepare("SELECT data FROM telemetry WHERE event = 'inbox.decision.overruled'")
      .get() as {
      data: string;
    };
    expect(JSON.parse(logged.data)).toMatchObject({ proposal: id, note: 'retired', winner: { by: 'boss' } });
  });

  it('two approvals with different text: the local note is retired, the winner’s is its own item', () => {
    const r = replica('alice', { admin: true });
    const id = endRunWithProposals(r);
    const mine = approveProposal(
      { db: r.db, workspaceId: r.workspaceId, user: 'alice', surface: 'cli' },
      id,
      {
        body: 'My edit of the rule.',
      },
    );
    // The winner's note is made in the winner's namespace ([S25]): another id than alice's.
    const theirNote = ownedItemId(r.workspaceId, 'note', 'boss', `writeback:${id}`);
    expect(theirNote).not.toBe(mine.itemId);
    const theirs = decideOp(id, {
      decision: 'approved',
      reason: null,
      body: 'Their edit of the rule.',
      edited: true,
      itemId: theirNote,
    });
    apply(r, [pulled(theirs, 'boss')]);
    expect(state(r, id)).toMatchObject({
      state: 'approved',
      body: 'Their edit of the rule.',
      decided_by: 'boss',
      item_id: theirNote,
    });
    expect(getRow(r.db, mine.itemId ?? '')).toMatchObject({ retired_at: expect.any(String) });
    expect(r.db.prepare("SELECT kind FROM sync_changes WHERE kind = 'item'").all()).toHaveLength(1);
  });

  it('an evicted proposal leaves the replica', () => {
    const proposal = aliceProposal();
    const r = replica('bob');
    apply(r, [pulled(createOp(proposal))]);
    expect(apply(r, [], [proposal.id])).toMatchObject({ evicted: 1, proposals: 1 });
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM proposals').get()).toEqual({ n: 0 });
    expect(apply(r, [], [proposal.id])).toMatchObject({ evicted: 0, proposals: 0 });
  });
});
