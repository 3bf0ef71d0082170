/**
 * The server's current state per item and edge: the winning op (last writer by hlc, ties by op
 * id), its scope, and for items the blob. Loaded for a push, merged with the batch in memory,
 * written back in the same transaction.
 */
import type { Queryable } from '../db/types.ts';
import { isNewer } from './canonical.ts';

export type ItemState = {
  id: string;
  scope: string;
  hlc: string;
  opId: string;
  seq: number;
  blob: string | null;
};
export type EdgeState = {
  id: string;
  scope: string;
  hlc: string;
  opId: string;
  seq: number;
  fromId: string;
  toId: string;
};

type ItemRow = {
  id: string;
  scope: string;
  hlc: string;
  op_id: string;
  seq: number | string;
  blob: string | null;
};
type EdgeRow = Omit<ItemRow, 'blob'> & { from_id: string; to_id: string };

export async function loadItems(tx: Queryable, ids: readonly string[]): Promise<Map<string, ItemState>> {
  const map = new Map<string, ItemState>();
  if (ids.length === 0) return map;
  const rows = await tx.query<ItemRow>(
    'SELECT id, scope, hlc, op_id, seq, blob FROM items WHERE id = ANY($1::text[])',
    [ids],
  );
  for (const r of rows) {
    map.set(r.id, { id: r.id, scope: r.scope, hlc: r.hlc, opId: r.op_id, seq: Number(r.seq), blob: r.blob });
  }
  return map;
}

export async function loadEdges(tx: Queryable, ids: readonly string[]): Promise<Map<string, EdgeState>> {
  const map = new Map<string, EdgeState>();
  if (ids.length === 0) return map;
  const rows = await tx.query<EdgeRow>(
    'SELECT id, scope, hlc, op_id, seq, from_id, to_id FROM edges WHERE id = ANY($1::text[])',
    [ids],
  );
  for (const r of rows) {
    map.set(r.id, {
      id: r.id,
      scope: r.scope,
      hlc: r.hlc,
      opId: r.op_id,
      seq: Number(r.seq),
      fromId: r.from_id,
      toId: r.to_id,
    });
  }
  return map;
}

/** Keeps `next` in `map` if it wins over what is there. Returns whether it won. */
export function mergeState<S extends { id: string; hlc: string; opId: string }>(
  map: Map<string, S>,
  next: S,
): boolean {
  const current = map.get(next.id);
  if (current && !isNewer(next, current)) return false;
  map.set(next.id, next);
  return true;
}

// Written with a last-writer-wins guard so a stale writer can never roll the state back.
export async function saveItems(tx: Queryable, items: readonly ItemState[]): Promise<void> {
  if (items.length === 0) return;
  await tx.query(
    `INSERT INTO items (id, scope, hlc, op_id, seq, blob)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[])
     ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, hlc = EXCLUDED.hlc, op_id = EXCLUDED.op_id,
       seq = EXCLUDED.seq, blob = EXCLUDED.blob
     WHERE (items.hlc COLLATE "C", items.op_id COLLATE "C") < (EXCLUDED.hlc COLLATE "C", EXCLUDED.op_id COLLATE "C")`,
    [
      items.map((i) => i.id),
      items.map((i) => i.scope),
      items.map((i) => i.hlc),
      items.map((i) => i.opId),
      items.map((i) => i.seq),
      items.map((i) => i.blob),
    ],
  );
}

export async function saveEdges(tx: Queryable, edges: readonly EdgeState[]): Promise<void> {
  if (edges.length === 0) return;
  await tx.query(
    `INSERT INTO edges (id, scope, hlc, op_id, seq, from_id, to_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[])
     ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, hlc = EXCLUDED.hlc, op_id = EXCLUDED.op_id,
       seq = EXCLUDED.seq, from_id = EXCLUDED.from_id, to_id = EXCLUDED.to_id
     WHERE (edges.hlc COLLATE "C", edges.op_id COLLATE "C") < (EXCLUDED.hlc COLLATE "C", EXCLUDED.op_id COLLATE "C")`,
    [
      edges.map((e) => e.id),
      edges.map((e) => e.scope),
      edges.map((e) => e.hlc),
      edges.map((e) => e.opId),
      edges.map((e) => e.seq),
      edges.map((e) => e.fromId),
      edges.map((e) => e.toId),
    ],
  );
}
