/**
 * The server's current state per item and edge: the winning op (last writer by hlc, ties by op
 * id), its scope, for items the blob, and what the authority rules check ([S24]–[S27]): kind,
 * file, id namespace, creator, origin actor. Loaded for a push, merged with the batch in memory,
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
  storageKind: string | null;
  fileId: string | null;
  /** The namespace the id was made in ([S25]); null for ids made before ids had one. */
  namespace: string | null;
  /** Who created the item ([S24]): they (or an admin) may move it to another scope. */
  createdBy: string | null;
  originActor: string | null;
  /** What the winning op says replaced the item: an earlier version names its source ([S35]). */
  supersededBy: string | null;
};
export type EdgeState = {
  id: string;
  scope: string;
  hlc: string;
  opId: string;
  seq: number;
  fromId: string;
  toId: string;
  type: string | null;
  createdBy: string | null;
  originActor: string | null;
};

type ItemRow = {
  id: string;
  scope: string;
  hlc: string;
  op_id: string;
  seq: number | string;
  blob: string | null;
  storage_kind: string | null;
  file_id: string | null;
  namespace: string | null;
  created_by: string | null;
  origin_actor: string | null;
  superseded_by: string | null;
};
type EdgeRow = Pick<ItemRow, 'id' | 'scope' | 'hlc' | 'op_id' | 'seq' | 'created_by' | 'origin_actor'> & {
  from_id: string;
  to_id: string;
  type: string | null;
};

export async function loadItems(tx: Queryable, ids: readonly string[]): Promise<Map<string, ItemState>> {
  const map = new Map<string, ItemState>();
  if (ids.length === 0) return map;
  const rows = await tx.query<ItemRow>(
    `SELECT id, scope, hlc, op_id, seq, blob, storage_kind, file_id, namespace, created_by, origin_actor,
       superseded_by
     FROM items WHERE id = ANY($1::text[])`,
    [ids],
  );
  for (const r of rows) {
    map.set(r.id, {
      id: r.id,
      scope: r.scope,
      hlc: r.hlc,
      opId: r.op_id,
      seq: Number(r.seq),
      blob: r.blob,
      storageKind: r.storage_kind,
      fileId: r.file_id,
      namespace: r.namespace,
      createdBy: r.created_by,
      originActor: r.origin_actor,
      supersededBy: r.superseded_by,
    });
  }
  return map;
}

export async function loadEdges(tx: Queryable, ids: readonly string[]): Promise<Map<string, EdgeState>> {
  const map = new Map<string, EdgeState>();
  if (ids.length === 0) return map;
  const rows = await tx.query<EdgeRow>(
    `SELECT id, scope, hlc, op_id, seq, from_id, to_id, type, created_by, origin_actor
     FROM edges WHERE id = ANY($1::text[])`,
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
      type: r.type,
      createdBy: r.created_by,
      originActor: r.origin_actor,
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

// Written with a last-writer-wins guard so a stale writer can never roll the state back. Who
// created an item and the namespace of its id are kept from its first write.
export async function saveItems(tx: Queryable, items: readonly ItemState[]): Promise<void> {
  if (items.length === 0) return;
  await tx.query(
    `INSERT INTO items (id, scope, hlc, op_id, seq, blob, storage_kind, file_id, namespace, created_by, origin_actor,
       superseded_by)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
     ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, hlc = EXCLUDED.hlc, op_id = EXCLUDED.op_id,
       seq = EXCLUDED.seq, blob = EXCLUDED.blob, origin_actor = EXCLUDED.origin_actor,
       superseded_by = EXCLUDED.superseded_by,
       storage_kind = COALESCE(items.storage_kind, EXCLUDED.storage_kind),
       file_id = COALESCE(items.file_id, EXCLUDED.file_id)
     WHERE (items.hlc COLLATE "C", items.op_id COLLATE "C") < (EXCLUDED.hlc COLLATE "C", EXCLUDED.op_id COLLATE "C")`,
    [
      items.map((i) => i.id),
      items.map((i) => i.scope),
      items.map((i) => i.hlc),
      items.map((i) => i.opId),
      items.map((i) => i.seq),
      items.map((i) => i.blob),
      items.map((i) => i.storageKind),
      items.map((i) => i.fileId),
      items.map((i) => i.namespace),
      items.map((i) => i.createdBy),
      items.map((i) => i.originActor),
      items.map((i) => i.supersededBy),
    ],
  );
}

export async function saveEdges(tx: Queryable, edges: readonly EdgeState[]): Promise<void> {
  if (edges.length === 0) return;
  await tx.query(
    `INSERT INTO edges (id, scope, hlc, op_id, seq, from_id, to_id, type, created_by, origin_actor)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[])
     ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope, hlc = EXCLUDED.hlc, op_id = EXCLUDED.op_id,
       seq = EXCLUDED.seq, from_id = EXCLUDED.from_id, to_id = EXCLUDED.to_id,
       type = COALESCE(edges.type, EXCLUDED.type), origin_actor = EXCLUDED.origin_actor
     WHERE (edges.hlc COLLATE "C", edges.op_id COLLATE "C") < (EXCLUDED.hlc COLLATE "C", EXCLUDED.op_id COLLATE "C")`,
    [
      edges.map((e) => e.id),
      edges.map((e) => e.scope),
      edges.map((e) => e.hlc),
      edges.map((e) => e.opId),
      edges.map((e) => e.seq),
      edges.map((e) => e.fromId),
      edges.map((e) => e.toId),
      edges.map((e) => e.type),
      edges.map((e) => e.createdBy),
      edges.map((e) => e.originActor),
    ],
  );
}

/**
 * A proposal's state ([S20], [S21]): created once, decided once; its scope never changes. The
 * seqs are those of its create and decide ops (0 until the push that makes them numbers them).
 */
export type ProposalState = {
  id: string;
  scope: string;
  state: 'pending' | 'approved' | 'rejected';
  createdBy: string;
  createdSeq: number;
  decidedBy: string | null;
  decidedAt: string | null;
  decidedSeq: number | null;
};

type ProposalRow = {
  id: string;
  scope: string;
  state: ProposalState['state'];
  created_by: string;
  created_seq: number | string;
  decided_by: string | null;
  decided_at: string | null;
  decided_seq: number | string | null;
};

export async function loadProposals(
  tx: Queryable,
  ids: readonly string[],
): Promise<Map<string, ProposalState>> {
  const map = new Map<string, ProposalState>();
  if (ids.length === 0) return map;
  const rows = await tx.query<ProposalRow>(
    `SELECT id, scope, state, created_by, created_seq, decided_by, decided_at, decided_seq
     FROM proposals WHERE id = ANY($1::text[]) FOR UPDATE`,
    [ids],
  );
  for (const r of rows) {
    map.set(r.id, {
      id: r.id,
      scope: r.scope,
      state: r.state,
      createdBy: r.created_by,
      createdSeq: Number(r.created_seq),
      decidedBy: r.decided_by,
      decidedAt: r.decided_at,
      decidedSeq: r.decided_seq === null ? null : Number(r.decided_seq),
    });
  }
  return map;
}

/** Writes the proposals a push created or decided (the push holds the sequence lock: no races). */
export async function saveProposals(tx: Queryable, proposals: readonly ProposalState[]): Promise<void> {
  if (proposals.length === 0) return;
  await tx.query(
    `INSERT INTO proposals (id, scope, state, created_by, created_seq, decided_by, decided_at, decided_seq)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[],
       $8::bigint[])
     ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, decided_by = EXCLUDED.decided_by,
       decided_at = EXCLUDED.decided_at, decided_seq = EXCLUDED.decided_seq
     WHERE proposals.state = 'pending'`,
    [
      proposals.map((p) => p.id),
      proposals.map((p) => p.scope),
      proposals.map((p) => p.state),
      proposals.map((p) => p.createdBy),
      proposals.map((p) => p.createdSeq),
      proposals.map((p) => p.decidedBy),
      proposals.map((p) => p.decidedAt),
      proposals.map((p) => p.decidedSeq),
    ],
  );
}
