/** Pull: visibility, order and paging, eviction when items leave a user's scopes, backfill. */
import { expect, it } from 'vitest';
import { ROUTES } from '#shared/sync/protocol.ts';
import { buildEdgeOp, buildItemOp, buildProposalOp, hlc, itemId, proposalId } from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';

const A = itemId('a');
const B = itemId('b');
const C = itemId('c');

function ids(ops: { op: { kind: string; item?: { id: string }; edge?: { id: string } } }[]): string[] {
  return ops.map((o) => o.op.item?.id ?? o.op.edge?.id ?? o.op.kind);
}

forEachBackend('pull', (backend) => {
  const env = useServer(backend);

  it('[S10] ops come in sequence order, paged, with a cursor', async () => {
    const { admin } = env();
    const ops = Array.from({ length: 25 }, (_, i) => buildItemOp(itemId(`p${i}`)));
    await admin.push(ops);
    const p1 = await admin.pull(0, 10);
    expect(p1.status).toBe(200);
    expect(p1.body.ops.map((o) => o.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(p1.body).toMatchObject({ cursor: 10, more: true, evict: [] });
    const all = await admin.pullAll(10, 10);
    expect(all.ops.map((o) => o.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i + 11));
    expect(all.cursor).toBe(25);
    const empty = await admin.pull(25);
    expect(empty.body).toEqual({ ops: [], evict: [], cursor: 25, more: false, page: expect.any(String) });
    expect(p1.body.ops[0]?.op).toEqual(ops[0]);
  });

  it('[S10] a bad cursor or limit is a 400; a limit above the maximum is clamped', async () => {
    const { admin } = env();
    expect((await admin.request('GET', `${ROUTES.pull}?after=-1`)).status).toBe(400);
    expect((await admin.request('GET', `${ROUTES.pull}?after=x`)).status).toBe(400);
    expect((await admin.request('GET', `${ROUTES.pull}?limit=0`)).status).toBe(400);
    expect((await admin.request('GET', `${ROUTES.pull}?limit=999999`)).status).toBe(200);
  });

  it('[S10] a user receives only ops, items and edges in scopes they can see', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.createTeam('sales');
    await e.admin.addToTeam('sales', 'admin');
    await e.admin.push([
      buildItemOp(A, 'org'),
      buildItemOp(B, 'team:sales'),
      buildItemOp(C, 'user:admin'),
      buildEdgeOp(A, B, 'team:sales'),
      buildProposalOp(proposalId('sales'), 'team:sales'),
      buildProposalOp(proposalId('org'), 'org'),
    ]);
    const [E, U] = [itemId('e', 'n', 'bob'), itemId('u', 'n', 'bob')];
    await bob.push([buildItemOp(E, 'team:eng'), buildItemOp(U, 'user:bob')]);
    const got = await bob.pullAll();
    expect(ids(got.ops)).toEqual([A, 'proposal.upsert', E, U]);
    const all = await e.admin.pullAll();
    expect(ids(all.ops)).toEqual([
      A,
      B,
      C,
      expect.stringMatching(/^g_/),
      'proposal.upsert',
      'proposal.upsert',
    ]);
  });

  it('[S10] an item.upsert whose item is now in a scope the user cannot see is not delivered', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.push([buildItemOp(A, 'org', { hlc: hlc(1) }), buildItemOp(B, 'org'), buildEdgeOp(A, B)]);
    await e.admin.push([buildItemOp(A, 'user:admin', { hlc: hlc(2) })]);
    const got = await bob.pullAll();
    expect(ids(got.ops)).toEqual([B]);
    expect(got.evict).toEqual([]);
  });

  it('[S11] removing a user from a team evicts its items and edges on their next pull, once', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.addToTeam('eng', 'admin');
    const edge = buildEdgeOp(A, B, 'team:eng');
    await e.admin.push([buildItemOp(A, 'org'), buildItemOp(B, 'team:eng'), buildItemOp(C, 'team:eng'), edge]);
    const first = await bob.pullAll();
    expect(ids(first.ops)).toEqual([A, B, C, edge.edge.id]);
    expect((await e.admin.removeFromTeam('eng', 'bob')).status).toBe(200);
    const next = await bob.pull(first.cursor);
    expect(next.body.ops).toEqual([]);
    expect(next.body.evict).toEqual([B, C, edge.edge.id].sort());
    expect((await bob.pull(first.cursor)).body.evict).toEqual([]);
    await e.admin.push([buildItemOp(C, 'team:eng', { hlc: hlc(9) })]);
    const later = await bob.pullAll(next.body.cursor);
    expect(later.ops).toEqual([]);
    expect(later.evict).toEqual([]);
  });

  it('[S11] narrowing an item scope evicts it from those who no longer see it', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    const carol = await e.admin.join('carol');
    const mine = itemId('a', 'n', 'bob');
    await bob.push([buildItemOp(mine, 'org', { hlc: hlc(1) })]);
    const b1 = await bob.pullAll();
    const c1 = await carol.pullAll();
    // Its author narrows it ([S24]).
    await bob.push([buildItemOp(mine, 'team:eng', { hlc: hlc(2) })]);
    const b2 = await bob.pullAll(b1.cursor);
    const c2 = await carol.pullAll(c1.cursor);
    expect(b2.evict).toEqual([]);
    expect(ids(b2.ops)).toEqual([mine]);
    expect(c2.evict).toEqual([mine]);
    expect(c2.ops).toEqual([]);
  });

  it('[S12] joining a team (again) delivers its current items on the next pull', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildItemOp(A, 'team:eng', { hlc: hlc(1) }), buildItemOp(B, 'org')]);
    const p1 = await bob.pullAll();
    await e.admin.removeFromTeam('eng', 'bob');
    const p2 = await bob.pullAll(p1.cursor);
    expect(p2.evict).toEqual([A]);
    const update = buildItemOp(A, 'team:eng', { hlc: hlc(5), item: { body: 'while away' } });
    const edge = buildEdgeOp(A, B, 'team:eng');
    await e.admin.push([update, edge, buildItemOp(C, 'org')]);
    const p3 = await bob.pullAll(p2.cursor);
    expect(ids(p3.ops)).toEqual([C]);
    await e.admin.addToTeam('eng', 'bob');
    const p4 = await bob.pullAll(p3.cursor);
    expect(p4.ops.map((o) => o.op)).toEqual([update, edge]);
    expect(p4.cursor).toBe(p3.cursor);
    expect((await bob.pullAll(p4.cursor)).ops).toEqual([]);
  });

  it('[S12] an item moving into a visible scope brings its edges along', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.push([buildItemOp(A, 'user:admin', { hlc: hlc(1) }), buildItemOp(B, 'user:admin')]);
    const edge = buildEdgeOp(A, B, 'user:admin');
    await e.admin.push([edge]);
    const p1 = await bob.pullAll();
    expect(p1.ops).toEqual([]);
    const moveA = buildItemOp(A, 'org', { hlc: hlc(3) });
    const moveB = buildItemOp(B, 'org', { hlc: hlc(3) });
    const edgeOrg = buildEdgeOp(A, B, 'org', { hlc: hlc(4) });
    await e.admin.push([moveA, moveB, edgeOrg]);
    const p2 = await bob.pullAll(p1.cursor);
    expect(p2.ops.map((o) => o.op)).toEqual([moveA, moveB, edgeOrg]);
  });

  it('[S19] a page that was not applied is sent again', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildItemOp(A, 'team:eng', { hlc: hlc(1) }), buildItemOp(B, 'org')]);
    const p1 = await bob.pullAll();
    expect(ids(p1.ops)).toEqual([A, B]);
    const committed = p1.page; // the last page bob applied

    // Eviction: answered, then lost before the replica committed it.
    await e.admin.removeFromTeam('eng', 'bob');
    const lost = await bob.pull(p1.cursor, undefined, committed);
    expect(lost.body.evict).toEqual([A]);
    const again = await bob.pull(p1.cursor, undefined, committed);
    expect(again.body.evict).toEqual([A]);
    expect(again.body.page).not.toBe(lost.body.page);
    const after = await bob.pull(p1.cursor, undefined, again.body.page);
    expect(after.body.evict).toEqual([]);
    expect(after.body.ops).toEqual([]);

    // Backfill: the same.
    await e.admin.addToTeam('eng', 'bob');
    const b1 = await bob.pull(p1.cursor, undefined, after.body.page);
    expect(ids(b1.body.ops)).toEqual([A]);
    const b2 = await bob.pull(p1.cursor, undefined, after.body.page);
    expect(ids(b2.body.ops)).toEqual([A]);
    const b3 = await bob.pull(p1.cursor, undefined, b2.body.page);
    expect(b3.body.ops).toEqual([]);
    expect(b3.body.evict).toEqual([]);
  });

  it('[S19] without an ack, a repeated page that moved the cursor is undone; others count as applied', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildItemOp(A, 'team:eng', { hlc: hlc(1) })]);
    const first = await bob.pull(0, undefined, null);
    expect(ids(first.body.ops)).toEqual([A]);
    await e.admin.push([buildItemOp(B, 'org')]);
    // The replica never stored the cursor: it asks again from 0 and gets the page again.
    const retry = await bob.pull(0, undefined, null);
    expect(ids(retry.body.ops)).toEqual([A, B]);
    // An old client that applied it moves on: nothing is sent twice.
    const next = await bob.pull(retry.body.cursor, undefined, null);
    expect(next.body.ops).toEqual([]);
    await e.admin.removeFromTeam('eng', 'bob');
    const evicted = await bob.pull(next.body.cursor, undefined, null);
    expect(evicted.body.evict).toEqual([A]);
    // The cursor did not move: an old client's repeat counts as applied, as before [S19].
    expect((await bob.pull(next.body.cursor, undefined, null)).body.evict).toEqual([]);
  });

  it('[S34] [S19] a refused op is answered by the winning op on the next pull, again when that page was lost', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.push([buildItemOp(A, 'org', { hlc: hlc(1), item: { body: 'the admin wrote this' } })]);
    const p1 = await bob.pullAll();
    expect(ids(p1.ops)).toEqual([A]);
    const refused = await bob.push([buildItemOp(A, 'team:eng', { hlc: hlc(2) })]);
    expect(refused.refused).toHaveLength(1);
    const lost = await bob.pull(p1.cursor, undefined, p1.page);
    expect(
      lost.body.ops.map((o) => [o.seq, o.op.kind === 'item.upsert' ? o.op.item.body : o.op.kind]),
    ).toEqual([[p1.ops[0]?.seq, 'the admin wrote this']]);
    const again = await bob.pull(p1.cursor, undefined, p1.page);
    expect(ids(again.body.ops)).toEqual([A]);
    const done = await bob.pull(again.body.cursor, undefined, again.body.page);
    expect(done.body).toMatchObject({ ops: [], evict: [] });
  });

  // Found by the server fuzz, seed 681621069 (test/sync/server-regressions.test.ts replays it with
  // replicas): the page that evicts what a refused op touched is lost, the member is back in the
  // team before the next pull, and the undone eviction must not leave the holding as current.
  for (const refusedFirst of [true, false]) {
    it(`[S34] [S19] a refused op ${refusedFirst ? 'whose holding a lost page then evicted' : 'pushed while a lost page had evicted its holding'} is answered by the winning op once the user sees it again`, async () => {
      const e = env();
      const bob = await e.admin.join('bob', ['eng']);
      await e.admin.addToTeam('eng', 'admin');
      await e.admin.push([
        buildItemOp(A, 'team:eng', { hlc: hlc(1), item: { body: 'the admin wrote this' } }),
      ]);
      const p1 = await bob.pullAll();
      expect(ids(p1.ops)).toEqual([A]);
      await e.admin.removeFromTeam('eng', 'bob');
      const pushRefused = async () =>
        expect((await bob.push([buildItemOp(A, 'team:eng', { hlc: hlc(2) })])).refused).toHaveLength(1);
      if (refusedFirst) await pushRefused();
      const lost = await bob.pull(p1.cursor, undefined, p1.page);
      expect(lost.body.evict).toEqual([A]);
      if (!refusedFirst) await pushRefused();
      expect((await bob.pull(p1.cursor, undefined, p1.page)).body.evict).toEqual([A]); // lost too
      await e.admin.addToTeam('eng', 'bob');
      const back = await bob.pull(p1.cursor, undefined, p1.page);
      expect(back.body.evict).toEqual([]);
      expect(
        back.body.ops.map((o) => [o.seq, o.op.kind === 'item.upsert' ? o.op.item.body : o.op.kind]),
      ).toEqual([[p1.ops[0]?.seq, 'the admin wrote this']]);
      const done = await bob.pull(back.body.cursor, undefined, back.body.page);
      expect(done.body).toMatchObject({ ops: [], evict: [] });
    });
  }

  it('[S11] a device holds what it pushed and won: leaving the team evicts it without a pull in between', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    const start = await bob.pullAll();
    const mine = itemId('c', 'n', 'bob');
    expect(
      (await bob.push([buildItemOp(mine, 'team:eng', { item: { origin_actor: 'bob' } })])).accepted,
    ).toHaveLength(1);
    await e.admin.removeFromTeam('eng', 'bob');
    const page = await bob.pull(start.cursor);
    expect(page.body.evict).toEqual([mine]);
    expect(page.body.ops).toEqual([]);
  });

  it('[S10] duplicated and reordered deliveries converge (last writer wins on every replica)', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const v = [1, 2, 3, 4].map((n) => buildItemOp(A, 'org', { hlc: hlc(n), item: { body: `v${n}` } }));
    await bob.push([v[2]!, v[0]!]);
    await e.admin.push([v[3]!, v[0]!, v[1]!]);
    await bob.push([v[3]!, v[2]!, v[1]!]);
    const pulled = await bob.pullAll();
    const apply = (order: typeof pulled.ops) => {
      let best: (typeof v)[number] | null = null;
      for (const p of order) {
        const op = p.op as (typeof v)[number];
        if (!best || op.hlc > best.hlc || (op.hlc === best.hlc && op.id > best.id)) best = op;
      }
      return best?.item.body;
    };
    expect(pulled.ops).toHaveLength(4);
    expect(apply(pulled.ops)).toBe('v4');
    expect(apply([...pulled.ops].reverse())).toBe('v4');
    expect(apply([...pulled.ops, ...pulled.ops])).toBe('v4');
    const state = await e.db.query<{ op_id: string }>('SELECT op_id FROM items WHERE id = $1', [A]);
    expect(state[0]?.op_id).toBe(v[3]!.id);
  });
});
