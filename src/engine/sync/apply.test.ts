import { afterEach, describe, expect, it } from 'vitest';
import { type Op, OpSchema, type SyncItem } from '#shared/sync/protocol.ts';
import { writeTx } from '../db/driver.ts';
import { getRow, vecUpsert } from '../read/items.ts';
import { applyPage } from './apply.ts';
import { freezeChanges, nextBatch, pendingCount } from './outbox.ts';
import { checkIndexes, createReplica, dumpReplica, type TestReplica } from './testing/replica.ts';

const open: TestReplica[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.close();
});
function replica(name: string, options?: { connected?: boolean }): TestReplica {
  const r = createReplica(name, name, options);
  open.push(r);
  return r;
}

function item(id: string, body: string, extra: Partial<SyncItem> = {}): SyncItem {
  return {
    id,
    storage_kind: 'note',
    kind: 'fact',
    label: `label ${id}`,
    summary: null,
    body,
    source_key: `note:${id}`,
    canonical_type: null,
    canonical_value: null,
    blob: null,
    format: null,
    size: null,
    file_id: null,
    ordinal: null,
    locator: null,
    indexed: 1,
    health: null,
    scope: 'org',
    origin_actor: 'x',
    origin_source: 'test',
    origin_run: null,
    origin_at: '2026-01-01T00:00:00.000Z',
    occurred_at: null,
    retired_at: null,
    superseded_by: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1,
    vector: null,
    ...extra,
  };
}

let opCounter = 0;
function upsert(it: SyncItem, hlc: string, id?: string): Op {
  opCounter += 1;
  return OpSchema.parse({
    id: id ?? `00000000-0000-4000-8000-${String(opCounter).padStart(12, '0')}`,
    hlc,
    kind: 'item.upsert',
    scope: it.scope,
    item: it,
  });
}

function apply(r: TestReplica, ops: Op[], evict: string[] = []) {
  return writeTx(r.db, () =>
    applyPage(
      { db: r.db, workspaceId: r.workspaceId, localModel: r.localModel },
      { ops: ops.map((op, i) => ({ seq: i + 1, actor: 'x', op })), evict },
    ),
  );
}

const ID = 'n_00000000000000000001';
const H = (ms: number, c = 0, node = 'a') =>
  `${String(ms).padStart(13, '0')}-${String(c).padStart(6, '0')}-${node}`;

/**
 * Reconcile table in id:hlc notation: two writes to one item, the expected winner. Every case is
 * applied in both orders on fresh replicas and must end identical (merge(A,B) = merge(B,A)).
 */
const CASES: {
  name: string;
  a: [number, number, string, string];
  b: [number, number, string, string];
  wins: 'a' | 'b';
}[] = [
  { name: 'later ms wins', a: [2000, 0, 'a', 'A1'], b: [1000, 0, 'b', 'B1'], wins: 'a' },
  { name: 'same ms, higher counter wins', a: [1000, 1, 'a', 'A1'], b: [1000, 2, 'b', 'B1'], wins: 'b' },
  {
    name: 'same ms and counter, node breaks the tie',
    a: [1000, 1, 'b', 'A1'],
    b: [1000, 1, 'a', 'B1'],
    wins: 'a',
  },
  {
    name: 'identical clock, op id breaks the tie',
    a: [1000, 1, 'a', '00000000-0000-4000-8000-00000000000f'],
    b: [1000, 1, 'a', '00000000-0000-4000-8000-00000000000a'],
    wins: 'a',
  },
];

describe('[C4] last writer wins, symmetric', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const opA = upsert(
        item(ID, 'alpha body1', { label: 'A' }),
        H(c.a[0], c.a[1], c.a[2]),
        c.a[3].length > 5 ? c.a[3] : undefined,
      );
      const opB = upsert(
        item(ID, 'beta body2', { label: 'B' }),
        H(c.b[0], c.b[1], c.b[2]),
        c.b[3].length > 5 ? c.b[3] : undefined,
      );
      const ab = replica('ab');
      const ba = replica('ba');
      apply(ab, [opA]);
      apply(ab, [opB]);
      apply(ba, [opB]);
      apply(ba, [opA]);
      expect(dumpReplica(ab.db)).toEqual(dumpReplica(ba.db));
      expect(getRow(ab.db, ID)?.label).toBe(c.wins === 'a' ? 'A' : 'B');
      expect(checkIndexes(ab.db)).toEqual([]);
      expect(checkIndexes(ba.db)).toEqual([]);
    });
  }

  it('[C5] applying the same page twice is applying it once', () => {
    const r = replica('twice');
    const ops = [upsert(item(ID, 'one word1'), H(1000)), upsert(item(ID, 'two word2'), H(2000))];
    expect(apply(r, ops).applied).toBe(2);
    const once = dumpReplica(r.db);
    expect(apply(r, ops).applied).toBe(0);
    expect(dumpReplica(r.db)).toEqual(once);
    expect(checkIndexes(r.db)).toEqual([]);
  });

  it('[C5] retirements and revivals keep the search index in step', () => {
    const r = replica('retire');
    apply(r, [upsert(item(ID, 'live word1'), H(1000))]);
    apply(r, [upsert(item(ID, 'gone word2', { retired_at: '2026-02-01T00:00:00Z' }), H(2000))]);
    expect(checkIndexes(r.db)).toEqual([]);
    apply(r, [upsert(item(ID, 'back word3'), H(3000))]);
    expect(checkIndexes(r.db)).toEqual([]);
    expect(getRow(r.db, ID)?.body).toBe('back word3');
  });

  it('[C5] one page that writes, retires, revives and evicts items keeps the search index in step', () => {
    const r = replica('page');
    const other = 'n_00000000000000000002';
    const gone = 'n_00000000000000000003';
    apply(r, [upsert(item(ID, 'first word1'), H(500))]);
    const result = apply(
      r,
      [
        upsert(item(ID, 'second word2'), H(1000)),
        upsert(item(other, 'other word5'), H(1100)),
        upsert(item(ID, 'retired word3', { retired_at: '2026-02-01T00:00:00Z' }), H(2000)),
        upsert(item(gone, 'evicted word6'), H(2100)),
        upsert(item(ID, 'revived word4'), H(3000)),
      ],
      [gone],
    );
    expect(result).toMatchObject({ applied: 5, evicted: 1 });
    expect(checkIndexes(r.db)).toEqual([]);
    const match = (q: string) =>
      (r.db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ?').all(q) as unknown[]).length;
    expect([match('word1'), match('word2'), match('word3'), match('word4')]).toEqual([0, 0, 0, 1]);
    expect([match('word5'), match('word6')]).toEqual([1, 0]);
  });
});

describe('[C2] outbox', () => {
  it('records a local change in its own transaction while connected, and nothing before', () => {
    const off = replica('off', { connected: false });
    off.note('k1', 'hello word1');
    expect(pendingCount(off.db)).toBe(0);
    const on = replica('on');
    const id = on.note('k1', 'hello word1');
    expect(on.db.prepare('SELECT kind, ref FROM sync_changes').all()).toEqual([{ kind: 'item', ref: id }]);
  });

  it('local-only columns do not make a change; a change while applying is not recorded', () => {
    const r = replica('local');
    const id = r.note('k1', 'hello word1');
    freezeChanges(r.db);
    r.db.prepare('DELETE FROM sync_outbox').run();
    r.db.prepare('UPDATE items SET index_error = ?, embedded_model = ? WHERE id = ?').run('x', 'm', id);
    expect(pendingCount(r.db)).toBe(0);
    apply(r, [upsert(item('n_00000000000000000002', 'remote word9'), H(9_000_000_000_000))]);
    expect(pendingCount(r.db)).toBe(0);
  });

  it('freezes a row into a valid operation with its vector and model, without local-only columns', () => {
    const r = replica('freeze');
    const id = r.note('k1', 'hello word1');
    const row = getRow(r.db, id);
    if (!row) throw new Error('no row');
    const vector = new Float32Array(384).map((_, i) => (i % 7) / 7);
    writeTx(r.db, () => vecUpsert(r.db, row, 'model-x', vector));
    expect(freezeChanges(r.db)).toBe(1);
    const [entry] = nextBatch(r.db, 10, 1_000_000);
    const op = OpSchema.parse(JSON.parse(entry?.body ?? ''));
    if (op.kind !== 'item.upsert') throw new Error('wrong kind');
    expect(op.item.vector?.model).toBe('model-x');
    expect(op.item).not.toHaveProperty('index_error');
    expect(op.item).not.toHaveProperty('embedded_model');
    expect(op.item).not.toHaveProperty('workspace_id');
    // a second change to the same row replaces the unsent operation; the text it replaced is
    // kept as the note's earlier version (docs/FACTS.md [K16]), a row of its own
    r.note('k1', 'hello again word2');
    freezeChanges(r.db);
    const batch = nextBatch(r.db, 10, 1_000_000);
    expect(batch.filter((e) => e.ref === id)).toHaveLength(1);
    const earlier = batch.filter((e) => e.ref !== id).map((e) => OpSchema.parse(JSON.parse(e.body)));
    expect(
      earlier.map((o) => (o.kind === 'item.upsert' ? [o.item.body, o.item.superseded_by] : o.kind)),
    ).toEqual([['hello word1', id]]);
  });

  it('a pending local write that loses to a pulled one is dropped; one that wins stays', () => {
    const r = replica('lose');
    const id = r.note('k1', 'mine word1');
    freezeChanges(r.db);
    apply(r, [upsert(item(id, 'older word2'), H(1))]);
    expect(getRow(r.db, id)?.body).toBe('mine word1');
    expect(pendingCount(r.db)).toBe(1);
    apply(r, [upsert(item(id, 'newer word3'), H(9_999_999_999_999))]);
    expect(getRow(r.db, id)?.body).toBe('newer word3');
    expect(pendingCount(r.db)).toBe(0);
  });
});

describe('[C6] vectors and evictions', () => {
  const data = Buffer.from(new Float32Array(384).fill(0.05).buffer).toString('base64');

  it('stores a vector of the local model, leaves another model for local embedding', () => {
    const r = replica('vec');
    r.localModel = 'mine';
    apply(r, [
      upsert(item('n_00000000000000000003', 'same word1', { vector: { model: 'mine', data } }), H(1000)),
    ]);
    apply(r, [
      upsert(item('n_00000000000000000004', 'other word2', { vector: { model: 'theirs', data } }), H(1000)),
    ]);
    expect(getRow(r.db, 'n_00000000000000000003')?.embedded_model).toBe('mine');
    expect(getRow(r.db, 'n_00000000000000000004')?.embedded_model).toBeNull();
    const vecs = r.db.prepare('SELECT COUNT(*) AS n FROM vec_items').get() as { n: number };
    expect(vecs.n).toBe(1);
  });

  it('an eviction removes the item, its index entries and its edges', () => {
    const r = replica('evict');
    r.localModel = 'mine';
    const a = 'n_00000000000000000005';
    const b = 'n_00000000000000000006';
    apply(r, [
      upsert(item(a, 'first word1', { vector: { model: 'mine', data } }), H(1000)),
      upsert(item(b, 'second word2'), H(1000)),
    ]);
    r.link(a, b, 'LINKS_TO', 'n');
    apply(r, [], [a]);
    expect(getRow(r.db, a)).toBeUndefined();
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM edges').get()).toEqual({ n: 0 });
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM vec_items').get()).toEqual({ n: 0 });
    expect(checkIndexes(r.db)).toEqual([]);
  });
});
