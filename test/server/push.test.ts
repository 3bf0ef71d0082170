/** Push: who may write where, edges, idempotency, sequence numbers, malformed and oversize batches. */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { PUSH_MAX_BYTES, PUSH_MAX_OPS, ROUTES } from '#shared/sync/protocol.ts';
import { REPLAYED } from '../../src/server/sync/push.ts';
import { buildEdgeOp, buildItemOp, buildProposalOp, hlc, itemId, proposalId } from './factories.ts';
import { forEachBackend, type SuiteEnv, useServer } from './harness.ts';

const A = itemId('a');
const B = itemId('b');
const C = itemId('c');
/** Ids bob makes: in his own namespace ([S25]). */
const bobs = (name: string) => itemId(name, 'n', 'bob');
const P = proposalId('p');

/** Everything the server stores about ops and state: "nothing changed" compares these. */
async function snapshot(env: SuiteEnv) {
  return {
    ops: await env.db.query('SELECT seq, id, body_hash FROM ops ORDER BY seq'),
    items: await env.db.query('SELECT * FROM items ORDER BY id'),
    edges: await env.db.query('SELECT * FROM edges ORDER BY id'),
    seq: await env.db.query('SELECT last_seq FROM sync_state'),
  };
}

forEachBackend('push', (backend) => {
  const env = useServer(backend);

  it('[S6] accepted ops get consecutive sequence numbers in batch order', async () => {
    const { admin } = env();
    const r1 = await admin.push([buildItemOp(A), buildItemOp(B), buildProposalOp(P)]);
    expect(r1.refused).toEqual([]);
    expect(r1.accepted.map((a) => a.seq)).toEqual([1, 2, 3]);
    const r2 = await admin.push([buildItemOp(C)]);
    expect(r2.accepted.map((a) => a.seq)).toEqual([4]);
  });

  it('[S2] the actor is the token user, whatever the op says', async () => {
    const { admin } = env();
    const bob = await admin.join('bob');
    // An edit of someone else's item keeps their origin ([S26]); the op's actor is still bob.
    await admin.push([buildItemOp(A, 'org')]);
    await bob.push([buildItemOp(A, 'org', { hlc: hlc(2), item: { body: 'edited by bob' } })]);
    const pulled = await admin.pullAll();
    expect(pulled.ops.map((o) => o.actor)).toEqual(['admin', 'bob']);
  });

  it('[S3] a member writes in org, their own user scope and their teams only', async () => {
    const e = env();
    const bob = await e.admin.join('bob', ['eng']);
    await e.admin.createTeam('sales');
    const before = await snapshot(e);
    const r = await bob.push([
      buildItemOp(A, 'team:sales'),
      buildItemOp(B, 'user:admin'),
      buildProposalOp(P, 'team:sales'),
    ]);
    expect(r.accepted).toEqual([]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      'bob cannot write in scope team:sales',
      'bob cannot write in scope user:admin',
      'bob cannot write in scope team:sales',
    ]);
    expect(await snapshot(e)).toEqual(before);
    const ok = await bob.push([
      buildItemOp(bobs('a'), 'org'),
      buildItemOp(bobs('b'), 'user:bob'),
      buildItemOp(bobs('c'), 'team:eng'),
    ]);
    expect(ok.refused).toEqual([]);
  });

  it('[S3] nobody takes over an item in a scope they cannot write, and op scope must match the item', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.push([buildItemOp(A, 'user:admin', { hlc: hlc(1) })]);
    const before = await snapshot(e);
    const r = await bob.push([
      buildItemOp(A, 'org', { hlc: hlc(5) }),
      { ...buildItemOp(B, 'org'), scope: 'user:bob' },
    ]);
    // An id of someone else's item is refused like any id not made in bob's namespace ([S25]).
    expect(r.refused.map((x) => x.reason)).toEqual([
      `item id ${A} is not the id of its source key in your namespace`,
      "op scope user:bob differs from the item's scope org",
    ]);
    expect(await snapshot(e)).toEqual(before);
  });

  it('[S4] an edge needs both ends on the server or in the same batch, in any order', async () => {
    const e = env();
    const lonely = await e.admin.push([buildEdgeOp(A, B)]);
    expect(lonely.refused).toEqual([{ id: expect.any(String), reason: `edge end ${A} not found` }]);
    const sameBatch = await e.admin.push([buildEdgeOp(A, B), buildItemOp(A), buildItemOp(B)]);
    expect(sameBatch.refused).toEqual([]);
    expect(sameBatch.accepted.map((a) => a.seq)).toEqual([1, 2, 3]);
    const later = await e.admin.push([buildEdgeOp(B, A)]);
    expect(later.refused).toEqual([]);
  });

  it('[S4] an edge scope is the narrowest of its ends; incomparable ends fail closed', async () => {
    const e = env();
    await e.admin.createTeam('eng');
    await e.admin.addToTeam('eng', 'admin');
    await e.admin.push([buildItemOp(A, 'org'), buildItemOp(B, 'team:eng'), buildItemOp(C, 'user:admin')]);
    const before = await snapshot(e);
    const r = await e.admin.push([
      buildEdgeOp(A, B, 'org'),
      buildEdgeOp(B, C, 'team:eng'),
      buildEdgeOp(A, C, 'org'),
    ]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      "edge scope must be team:eng, the narrowest of its ends' scopes",
      'edge ends are in scopes that cannot be compared (fails closed)',
      "edge scope must be user:admin, the narrowest of its ends' scopes",
    ]);
    expect(await snapshot(e)).toEqual(before);
    const ok = await e.admin.push([buildEdgeOp(A, B, 'team:eng'), buildEdgeOp(A, C, 'user:admin')]);
    expect(ok.refused).toEqual([]);
  });

  it('[S4] an end the actor cannot see is reported like a missing one', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.push([buildItemOp(A, 'user:admin'), buildItemOp(B, 'org')]);
    const r = await bob.push([buildEdgeOp(B, A, 'user:admin'), buildEdgeOp(B, A, 'org')]);
    expect(r.refused.map((x) => x.reason)).toEqual([
      'bob cannot write in scope user:admin',
      `edge end ${A} not found`,
    ]);
  });

  it('[S5] the same op twice gets the same answer and is applied once', async () => {
    const e = env();
    const ops = [buildItemOp(A), buildItemOp(B)];
    const first = await e.admin.push(ops);
    const again = await e.admin.push(ops);
    expect(again).toEqual(first);
    const bob = await e.admin.join('bob');
    expect(await bob.push([ops[1]!, buildItemOp(bobs('c'))])).toEqual({
      accepted: [
        { id: ops[1]!.id, seq: 2 },
        { id: expect.any(String), seq: 3 },
      ],
      refused: [],
    });
    const rows = await e.db.query('SELECT id FROM ops');
    expect(rows).toHaveLength(3);
  });

  it('[S5] a replayed id with a different body is refused and changes nothing', async () => {
    const e = env();
    const op = buildItemOp(A, 'org', { item: { body: 'original' } });
    await e.admin.push([op]);
    const before = await snapshot(e);
    const forged = { ...op, item: { ...op.item, body: 'forged' } };
    const r = await e.admin.push([forged]);
    expect(r).toEqual({ accepted: [], refused: [{ id: op.id, reason: REPLAYED }] });
    expect(await snapshot(e)).toEqual(before);
    const pulled = await e.admin.pullAll();
    expect(pulled.ops.map((o) => (o.op.kind === 'item.upsert' ? o.op.item.body : ''))).toEqual(['original']);
  });

  it('[S5] duplicates inside one batch: same body once, different body refused', async () => {
    const e = env();
    const op = buildItemOp(A);
    const r = await e.admin.push([op, op, { ...op, hlc: hlc(9) }]);
    expect(r.accepted).toEqual([
      { id: op.id, seq: 1 },
      { id: op.id, seq: 1 },
    ]);
    expect(r.refused).toEqual([{ id: op.id, reason: REPLAYED }]);
  });

  it('[S5] body identity ignores key order (canonical JSON)', async () => {
    const e = env();
    const op = buildItemOp(A);
    await e.admin.push([op]);
    const reordered = JSON.parse(
      JSON.stringify({ item: op.item, scope: op.scope, kind: op.kind, hlc: op.hlc, id: op.id }),
    );
    const r = await e.admin.push([reordered]);
    expect(r.accepted).toEqual([{ id: op.id, seq: 1 }]);
  });

  it('[S7] a malformed batch is a 400 with the reason, and nothing is applied', async () => {
    const e = env();
    const good = buildItemOp(A);
    for (const body of [
      { ops: [good, { ...buildItemOp(B), hlc: 'yesterday' }] },
      { ops: [good, { ...buildItemOp(B), item: { ...buildItemOp(B).item, extra: 1 } }] },
      { ops: [good, { ...buildItemOp(B), id: 'not-a-uuid' }] },
      { ops: [good, { ...buildItemOp(B), kind: 'item.delete' }] },
      { ops: 'all of them' },
      { ops: [good], actor: 'admin' },
    ]) {
      const r = await e.admin.request<{ error: { code: string; message: string } }>(
        'POST',
        ROUTES.push,
        body,
      );
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('validation-failed');
      expect(r.body.error.message).toMatch(/^Malformed push batch/);
    }
    const notJson = await e.admin.request('POST', ROUTES.push, '{"ops": [');
    expect(notJson.status).toBe(400);
    expect(await e.db.query('SELECT * FROM ops')).toEqual([]);
  });

  it('[S7] too many ops is a 400; an oversize body is a 413; nothing is applied', async () => {
    const e = env();
    const many = Array.from({ length: PUSH_MAX_OPS + 1 }, (_, i) => buildItemOp(itemId(`m${i}`)));
    const r1 = await e.admin.request('POST', ROUTES.push, { ops: many });
    expect(r1.status).toBe(400);
    const big = Array.from({ length: 50 }, (_, i) =>
      buildItemOp(itemId(`big${i}`), 'org', { item: { body: 'x'.repeat(190_000) } }),
    );
    expect(JSON.stringify({ ops: big }).length).toBeGreaterThan(PUSH_MAX_BYTES);
    const r2 = await e.admin.request<{ error: { code: string; message: string } }>('POST', ROUTES.push, {
      ops: big,
    });
    expect(r2.status).toBe(413);
    expect(r2.body.error.message).toBe(`Request body too large: the limit is ${PUSH_MAX_BYTES} bytes.`);
    expect(await e.db.query('SELECT * FROM ops')).toEqual([]);
    // Another route names its own limit (256 KiB for JSON), not the push's.
    const team = await e.admin.request<{ error: { message: string } }>('POST', ROUTES.teams, {
      id: 'x'.repeat(300_000),
    });
    expect(team.status).toBe(413);
    expect(team.body.error.message).toBe(`Request body too large: the limit is ${256 * 1024} bytes.`);
  });

  it('[S7] refusals do not block the rest of the batch', async () => {
    const e = env();
    const r = await e.admin.push([buildItemOp(A), buildEdgeOp(A, C), buildItemOp(B)]);
    expect(r.accepted.map((a) => a.seq)).toEqual([1, 2]);
    expect(r.refused).toHaveLength(1);
  });

  it('[S8] last writer wins by hlc, ties by op id, whatever the arrival order', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const newer = buildItemOp(A, 'org', { hlc: hlc(20), item: { body: 'newer' } });
    const older = buildItemOp(A, 'org', { hlc: hlc(10), item: { body: 'older' } });
    await e.admin.push([newer]);
    const r = await bob.push([older]);
    expect(r.accepted).toHaveLength(1);
    const state = await e.db.query<{ op_id: string }>('SELECT op_id FROM items WHERE id = $1', [A]);
    expect(state[0]?.op_id).toBe(newer.id);
    const tieLow = buildItemOp(B, 'org', { hlc: hlc(5), opId: '00000000-0000-4000-8000-000000000001' });
    const tieHigh = buildItemOp(B, 'org', { hlc: hlc(5), opId: 'ffffffff-ffff-4fff-bfff-ffffffffffff' });
    await e.admin.push([tieHigh]);
    await e.admin.push([tieLow]);
    const tie = await e.db.query<{ op_id: string }>('SELECT op_id FROM items WHERE id = $1', [B]);
    expect(tie[0]?.op_id).toBe(tieHigh.id);
  });

  it('[S6] concurrent pushes from many devices: every op once, sequence numbers without gaps', async () => {
    const e = env();
    const clients = await Promise.all(Array.from({ length: 6 }, (_, i) => e.admin.join(`u${i}`)));
    const sent = new Set<string>();
    await Promise.all(
      clients.map(async (c, ci) => {
        for (let b = 0; b < 5; b++) {
          const ops = Array.from({ length: 10 }, (_, i) =>
            buildItemOp(itemId(`c${ci}-${b}-${i}`, 'n', `u${ci}`), 'org', { opId: randomUUID() }),
          );
          for (const op of ops) sent.add(op.id);
          const r = await c.push(ops);
          expect(r.refused).toEqual([]);
        }
      }),
    );
    const rows = await e.db.query<{ seq: number | string; id: string }>(
      'SELECT seq, id FROM ops ORDER BY seq',
    );
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: sent.size }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id))).toEqual(sent);
  });
});
