/** Review proposals: created once, decided once by someone entitled to it, delivered only where visible. */
import { expect, it } from 'vitest';
import type { PulledOp } from '#shared/sync/protocol.ts';
import { buildDecisionOp, buildItemOp, buildProposalOp, itemId, proposalId } from './factories.ts';
import { forEachBackend, type SuiteEnv, useServer } from './harness.ts';

const P = proposalId('p');
const Q = proposalId('q');
const R = proposalId('r');

/** What the server keeps about proposals: "nothing changed" compares these. */
async function snapshot(env: SuiteEnv) {
  return {
    ops: await env.db.query('SELECT seq, id FROM ops ORDER BY seq'),
    proposals: await env.db.query('SELECT * FROM proposals ORDER BY id'),
  };
}

/** Each pulled op as `<kind>:<proposal or item id>`. */
function names(ops: readonly PulledOp[]): string[] {
  return ops.map(({ op }) => {
    if (op.kind === 'proposal.upsert') return `create:${op.proposal.id}`;
    if (op.kind === 'proposal.decide') return `decide:${op.proposalId}`;
    if (op.kind === 'item.upsert') return `item:${op.item.id}`;
    if (op.kind === 'item.erase') return `erase:${op.itemId}`;
    return `edge:${op.edge.id}`;
  });
}

forEachBackend('proposals', (backend) => {
  const env = useServer(backend);

  it('[S20] a member creates proposals where they may write, each id once', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.createTeam('sales');
    const before = await snapshot(e);
    const bad = await bob.push([
      buildProposalOp(P, 'team:sales'),
      { ...buildProposalOp(Q, 'org'), scope: 'team:eng' },
    ]);
    expect(bad.refused.map((r) => r.reason)).toEqual([
      'bob cannot write in scope team:sales',
      "op scope team:eng differs from the proposal's scope org",
    ]);
    expect(await snapshot(e)).toEqual(before);
    const create = buildProposalOp(P, 'team:eng', { by: 'bob' });
    const ok = await bob.push([
      create,
      buildProposalOp(Q, 'org', { by: 'bob' }),
      buildProposalOp(R, 'user:bob', { by: 'bob' }),
    ]);
    expect(ok.refused).toEqual([]);
    // The same op again is the same answer ([S5]); another create of the same id is refused.
    expect((await bob.push([create])).accepted).toEqual([{ id: create.id, seq: ok.accepted[0]?.seq }]);
    const again = await e.admin.push([buildProposalOp(Q, 'org')]);
    expect(again.refused.map((r) => r.reason)).toEqual([`proposal ${Q} already exists`]);
    const rows = await e.db.query<{ id: string; scope: string; state: string; created_by: string }>(
      'SELECT id, scope, state, created_by FROM proposals ORDER BY created_seq',
    );
    expect(rows).toEqual([
      { id: P, scope: 'team:eng', state: 'pending', created_by: 'bob' },
      { id: Q, scope: 'org', state: 'pending', created_by: 'bob' },
      { id: R, scope: 'user:bob', state: 'pending', created_by: 'bob' },
    ]);
  });

  it('[S21] team and org proposals are decided by admins only; a user-scope one by its user only', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.addToTeam('eng', 'admin');
    await bob.push([
      buildProposalOp(P, 'org', { by: 'bob' }),
      buildProposalOp(Q, 'team:eng', { by: 'bob' }),
      buildProposalOp(R, 'user:bob', { by: 'bob' }),
    ]);
    const before = await snapshot(e);
    const refused = await bob.push([buildDecisionOp(P, 'org'), buildDecisionOp(Q, 'team:eng')]);
    expect(refused.refused.map((r) => r.reason)).toEqual([
      'only a workspace admin can decide org proposals',
      'only a workspace admin can decide team:eng proposals',
    ]);
    // The admin cannot see bob's user scope: to them his proposal does not exist.
    const notTheirs = await e.admin.push([buildDecisionOp(R, 'user:bob'), buildDecisionOp(R, 'org')]);
    expect(notTheirs.refused.map((r) => r.reason)).toEqual([
      `proposal ${R} not found`,
      `proposal ${R} not found`,
    ]);
    expect(await snapshot(e)).toEqual(before);

    const byAdmin = await e.admin.push([buildDecisionOp(P, 'org'), buildDecisionOp(Q, 'team:eng')]);
    expect(byAdmin.refused).toEqual([]);
    const byBob = await bob.push([
      buildDecisionOp(R, 'user:bob', { decision: 'rejected', reason: 'mine, wrong' }),
    ]);
    expect(byBob.refused).toEqual([]);
    const rows = await e.db.query<{ id: string; state: string; decided_by: string }>(
      'SELECT id, state, decided_by FROM proposals ORDER BY created_seq',
    );
    expect(rows).toEqual([
      { id: P, state: 'approved', decided_by: 'admin' },
      { id: Q, state: 'approved', decided_by: 'admin' },
      { id: R, state: 'rejected', decided_by: 'bob' },
    ]);
  });

  it('[S21] an unknown or invisible proposal is not found, alike; op scope must be the proposal’s', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    const carol = await e.admin.join('carol', ['sales']);
    await carol.push([buildProposalOp(P, 'team:sales', { by: 'carol' })]);
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildProposalOp(Q, 'team:eng')]);
    // bob is made an admin on a second device so that only visibility can refuse him
    const bobAdmin = await e.admin.join('bob', [], true);
    const r = await bobAdmin.push([
      buildDecisionOp(P, 'org'),
      buildDecisionOp(proposalId('nowhere'), 'org'),
      buildDecisionOp(Q, 'org'),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      `proposal ${P} not found`,
      `proposal ${proposalId('nowhere')} not found`,
      `op scope org differs from the proposal's scope team:eng`,
    ]);
    expect((await bob.push([buildDecisionOp(Q, 'team:eng')])).refused).toEqual([]);
  });

  it('[S21] a second decision is refused naming the first decider', async () => {
    const e = env();
    const ann = await e.admin.join('ann', [], true);
    await e.admin.push([buildProposalOp(P, 'org')]);
    const first = await e.admin.push([buildDecisionOp(P, 'org', { decision: 'rejected', reason: 'stale' })]);
    expect(first.refused).toEqual([]);
    const before = await snapshot(e);
    const second = await ann.push([buildDecisionOp(P, 'org')]);
    expect(second.refused.map((x) => x.reason)).toEqual([`proposal ${P} was already rejected by admin`]);
    expect(await snapshot(e)).toEqual(before);
    // Two decisions in one batch: the first counts.
    await e.admin.push([buildProposalOp(Q, 'org')]);
    const both = await ann.push([
      buildDecisionOp(Q, 'org'),
      buildDecisionOp(Q, 'org', { decision: 'rejected', reason: 'no' }),
    ]);
    expect(both.accepted).toHaveLength(1);
    expect(both.refused.map((x) => x.reason)).toEqual([`proposal ${Q} was already approved by ann`]);
  });

  it('[S21] a decision says what it did: an approval names its note, a rejection why', async () => {
    const e = env();
    await e.admin.push([buildProposalOp(P, 'org')]);
    const r = await e.admin.push([
      buildDecisionOp(P, 'org', { itemId: null }),
      buildDecisionOp(P, 'org', { decision: 'rejected', reason: '  ' }),
      buildDecisionOp(P, 'org', { decision: 'rejected', reason: 'x', itemId: itemId('n') }),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      'an approval names the note it wrote (itemId)',
      'a rejection says why (reason)',
      'a rejection writes no note (itemId must be null)',
    ]);
    expect((await e.db.query<{ state: string }>('SELECT state FROM proposals'))[0]?.state).toBe('pending');
  });

  it('[S21] creation and decision in one batch: the creation is checked first, whatever the order', async () => {
    const e = env();
    const decide = buildDecisionOp(P, 'org', { edited: true, body: 'edited body' });
    const create = buildProposalOp(P, 'org');
    const r = await e.admin.push([decide, buildItemOp(itemId(`note-of-${P}`)), create]);
    expect(r.refused).toEqual([]);
    // Sequence numbers follow batch order; the state has both.
    expect(r.accepted.map((a) => a.seq)).toEqual([1, 2, 3]);
    const rows = await e.db.query<{
      state: string;
      created_seq: string | number;
      decided_seq: string | number;
    }>('SELECT state, created_seq, decided_seq FROM proposals');
    expect(rows.map((x) => [x.state, Number(x.created_seq), Number(x.decided_seq)])).toEqual([
      ['approved', 3, 1],
    ]);
  });

  it('[S9] every decision is in the audit log', async () => {
    const e = env();
    await e.admin.push([buildProposalOp(P, 'org'), buildProposalOp(Q, 'org')]);
    const decide = buildDecisionOp(P, 'org', { edited: true });
    await e.admin.push([decide, buildDecisionOp(Q, 'org', { decision: 'rejected', reason: 'wrong' })]);
    await e.admin.push([decide]); // a resend is not a new decision
    const rows = await e.db.query<{ action: string; subject: string; actor: string; details: string }>(
      "SELECT action, subject, actor, details FROM audit_log WHERE action = 'proposal.decide' ORDER BY id",
    );
    expect(rows.map((r) => [r.subject, r.actor, JSON.parse(r.details).decision])).toEqual([
      [P, 'admin', 'approved'],
      [Q, 'admin', 'rejected'],
    ]);
    expect(JSON.parse(rows[0]?.details ?? '{}')).toMatchObject({
      scope: 'org',
      edited: true,
      item: itemId(`note-of-${P}`),
      op: decide.id,
    });
  });

  it('[S22] a user who cannot see a team scope never receives its proposals or decisions', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.createTeam('sales');
    await e.admin.addToTeam('sales', 'admin');
    await e.admin.push([buildProposalOp(P, 'team:sales'), buildProposalOp(Q, 'org')]);
    await e.admin.push([buildDecisionOp(P, 'team:sales'), buildDecisionOp(Q, 'org')]);
    const got = await bob.pullAll();
    expect(names(got.ops)).toEqual([`create:${Q}`, `decide:${Q}`]);
    const all = await e.admin.pullAll();
    expect(names(all.ops)).toEqual([`create:${P}`, `create:${Q}`, `decide:${P}`, `decide:${Q}`]);
  });

  it('[S22] joining a team brings its proposals (with their decisions); leaving evicts them, once', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.createTeam('eng');
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildProposalOp(P, 'team:eng'), buildProposalOp(Q, 'team:eng')]);
    const decideP = buildDecisionOp(P, 'team:eng');
    await e.admin.push([decideP]);
    const p1 = await bob.pullAll();
    expect(p1.ops).toEqual([]);
    await e.admin.addToTeam('eng', 'bob');
    const p2 = await bob.pullAll(p1.cursor);
    expect(names(p2.ops)).toEqual([`create:${P}`, `create:${Q}`, `decide:${P}`]);
    expect(p2.ops[2]?.op).toEqual(decideP);
    expect(p2.cursor).toBe(p1.cursor);
    expect((await bob.pullAll(p2.cursor)).ops).toEqual([]);
    // A decision after the cursor comes in order, once.
    await e.admin.push([buildDecisionOp(Q, 'team:eng', { decision: 'rejected', reason: 'no' })]);
    const p3 = await bob.pullAll(p2.cursor);
    expect(names(p3.ops)).toEqual([`decide:${Q}`]);
    await e.admin.removeFromTeam('eng', 'bob');
    const p4 = await bob.pullAll(p3.cursor);
    expect(p4.evict).toEqual([P, Q].sort());
    expect((await bob.pullAll(p4.cursor)).evict).toEqual([]);
  });

  it('[S22] a backfilled proposal comes with its decision in one page, even with a small limit', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.createTeam('eng');
    await e.admin.addToTeam('eng', 'admin');
    const ids = [P, Q, R];
    await e.admin.push(ids.map((id) => buildProposalOp(id, 'team:eng')));
    await e.admin.push(ids.map((id) => buildDecisionOp(id, 'team:eng')));
    const p1 = await bob.pullAll();
    await e.admin.addToTeam('eng', 'bob');
    const pages: string[][] = [];
    let cursor = p1.cursor;
    for (let i = 0; i < 10; i++) {
      const page = await bob.pull(cursor, 3);
      pages.push(names(page.body.ops));
      cursor = page.body.cursor;
      if (!page.body.more) break;
    }
    // Two ops per unit fit in a page of three: one unit a page, never split.
    expect(pages).toEqual(ids.map((id) => [`create:${id}`, `decide:${id}`]));
  });

  it('[S19] a backfill or eviction of proposals that was not applied is sent again', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.createTeam('eng');
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildProposalOp(P, 'team:eng')]);
    const p1 = await bob.pullAll();
    await e.admin.addToTeam('eng', 'bob');
    const lost = await bob.pull(p1.cursor, undefined, p1.page);
    expect(names(lost.body.ops)).toEqual([`create:${P}`]);
    const again = await bob.pull(p1.cursor, undefined, p1.page);
    expect(names(again.body.ops)).toEqual([`create:${P}`]);
    const done = await bob.pull(p1.cursor, undefined, again.body.page);
    expect(done.body.ops).toEqual([]);
    await e.admin.removeFromTeam('eng', 'bob');
    const evicted = await bob.pull(p1.cursor, undefined, done.body.page);
    expect(evicted.body.evict).toEqual([P]);
    const evictedAgain = await bob.pull(p1.cursor, undefined, done.body.page);
    expect(evictedAgain.body.evict).toEqual([P]);
  });
});
