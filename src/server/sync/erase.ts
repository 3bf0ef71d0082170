/**
 * Erasing a source on the server (docs/SYNC_SPEC.md [S35], [S36]). An `item.erase` from a workspace
 * admin who can see the file or note deletes it with everything derived from it: its earlier
 * versions (items of its kind, in its namespace, keyed `<its source key>@v<n>` and superseded by
 * it), the sections of all of these, every edge from or to any of them, the ops that carried them
 * (their text), and the bytes no other item references. What is kept is a tombstone per erased
 * item (id, who, when) and the erase op itself, which names only the id: a later upsert of a
 * tombstoned id is refused, and every device that held any part of the source is sent the erase.
 */
import type { Op } from '#shared/sync/protocol.ts';
import { audit } from '../audit.ts';
import type { Queryable } from '../db/types.ts';
import type { Batch } from './batch.ts';
import { type EdgeState, type ItemState, loadEdges, loadItems } from './state.ts';

type EraseOp = Extract<Op, { kind: 'item.erase' }>;

/** One accepted erase, applied when the batch is saved. */
type Erasure = { opId: string; source: string; items: string[]; edges: string[]; blobs: string[] };

/** What the checks of a batch's erases read ([S35]), loaded with the batch. */
export type EraseContext = {
  /** Tombstoned ids among those the batch names, and those this batch erases ([S36]). */
  erased: Set<string>;
  /** Source keys, from their winning ops: of erase targets and their candidate versions. */
  sourceKeys: Map<string, string>;
  erasures: Erasure[];
  /** Refused erases whose source the actor sees: the parts to send their device again ([S34]). */
  eraseStale: Map<string, string[]>;
  /** Ids whose upsert was refused as erased: held by the pushing device, so the erase reaches it. */
  tombstoneHits: Set<string>;
};

/**
 * Loads what the batch's erases are checked against into `items` and `edges`: each target, its
 * sections and candidate versions (with theirs), every edge of these, the source keys, the
 * tombstones of every item id the batch names and the erases already made of the targets.
 */
export async function loadEraseContext(
  tx: Queryable,
  ops: readonly Op[],
  itemIds: ReadonlySet<string>,
  items: Map<string, ItemState>,
  edges: Map<string, EdgeState>,
): Promise<EraseContext> {
  const targets = ops.flatMap((o) => (o.kind === 'item.erase' ? [o.itemId] : []));
  const ctx: EraseContext = {
    erased: new Set(),
    sourceKeys: new Map(),
    erasures: [],
    eraseStale: new Map(),
    tombstoneHits: new Set(),
  };
  const named = [...itemIds];
  if (named.length > 0) {
    const rows = await tx.query<{ id: string }>('SELECT id FROM erased_items WHERE id = ANY($1::text[])', [
      named,
    ]);
    for (const r of rows) ctx.erased.add(r.id);
  }
  if (targets.length === 0) return ctx;
  const parts = await tx.query<{ id: string }>(
    `SELECT id FROM items WHERE file_id = ANY($1::text[]) OR superseded_by = ANY($1::text[])`,
    [targets],
  );
  const versions = parts.map((p) => p.id);
  const more = await tx.query<{ id: string }>(`SELECT id FROM items WHERE file_id = ANY($1::text[])`, [
    versions,
  ]);
  for (const [id, state] of await loadItems(tx, [...targets, ...versions, ...more.map((m) => m.id)]))
    items.set(id, state);
  const keyed = await tx.query<{ id: string; source_key: string | null }>(
    `SELECT i.id, (o.body::jsonb) -> 'item' ->> 'source_key' AS source_key
     FROM items i JOIN ops o ON o.seq = i.seq WHERE i.id = ANY($1::text[])`,
    [[...targets, ...versions]],
  );
  for (const k of keyed) if (k.source_key !== null) ctx.sourceKeys.set(k.id, k.source_key);
  const all = [...items.keys()];
  const touching = await tx.query<{ id: string }>(
    'SELECT id FROM edges WHERE from_id = ANY($1::text[]) OR to_id = ANY($1::text[])',
    [all],
  );
  for (const [id, state] of await loadEdges(
    tx,
    touching.map((t) => t.id).filter((id) => !edges.has(id)),
  ))
    edges.set(id, state);
  return ctx;
}

/** The items and edges an erase of `source` deletes, as the batch stands now. */
function partsOf(b: Batch, source: ItemState): { items: string[]; edges: string[]; blobs: string[] } {
  const key = b.sourceKeys.get(source.id);
  const versions = [...b.items.values()].filter(
    (s) =>
      s.supersededBy === source.id &&
      s.storageKind === source.storageKind &&
      s.namespace === source.namespace &&
      key !== undefined &&
      (b.sourceKeys.get(s.id) ?? '').startsWith(`${key}@v`),
  );
  const heads = new Set([source.id, ...versions.map((v) => v.id)]);
  const sections = [...b.items.values()].filter(
    (s) => s.storageKind === 'section' && s.fileId !== null && heads.has(s.fileId),
  );
  const items = [...heads, ...sections.map((s) => s.id)];
  const set = new Set(items);
  const edges = [...b.edges.values()].filter((e) => set.has(e.fromId) || set.has(e.toId)).map((e) => e.id);
  const blobs = [source, ...versions, ...sections].flatMap((s) => (s.blob ? [s.blob] : []));
  return { items, edges, blobs: [...new Set(blobs)] };
}

/** Why a file or note may not be erased by this op, or null ([S35]). */
function kindRefusal(b: Batch, current: ItemState): string | null {
  const id = current.id;
  if (current.storageKind === 'section') return `${id} is a section of ${current.fileId}: erase the file`;
  if (current.storageKind === 'entity') return `${id} is an entity: its page follows its sources`;
  if (current.storageKind !== 'file' && current.storageKind !== 'note')
    return `${id} is a ${current.storageKind ?? 'item'}: only a file or a note is erased`;
  if (b.sourceKeys.get(id)?.startsWith('tree:'))
    return `${id} comes from a connected repository: delete it there; the tree follows`;
  return null;
}

/**
 * [S35] An erase is accepted from a workspace admin who can see the item, by the op of its scope.
 * Erasing is idempotent: an erase of what the server does not hold, or holds out of the actor's
 * sight, has nothing to erase and is accepted (changing nothing), the same answer for both.
 */
export function checkErase(b: Batch, op: EraseOp): string | null {
  const id = op.itemId;
  if (!b.visible.has(op.scope)) return `${b.actor.user} cannot write in scope ${op.scope}`;
  const current = b.items.get(id);
  if (!current || !b.visible.has(current.scope)) return null;
  if (op.scope !== current.scope)
    return `op scope ${op.scope} differs from the item's scope ${current.scope}`;
  const refusal = b.actor.isAdmin
    ? kindRefusal(b, current)
    : `only a workspace admin can erase ${id}: ${b.actor.user} is not one`;
  if (refusal) {
    // The device erased what it could see of it: it is sent the server's state again ([S34]).
    const parts = partsOf(b, current);
    b.eraseStale.set(op.id, [...parts.items, ...parts.edges]);
    return refusal;
  }
  const parts = partsOf(b, current);
  for (const item of parts.items) {
    b.items.delete(item);
    b.erased.add(item);
  }
  for (const edge of parts.edges) b.edges.delete(edge);
  b.erasures.push({ opId: op.id, source: id, ...parts });
  return null;
}

/**
 * Applies the batch's accepted erases in its transaction ([S35], [S36]): rows, the ops that carried
 * them, holdings (a device that held a part holds the source's id, so its erase reaches it), the
 * tombstones and the audit entry. Answers the blobs nothing references any more, to delete once
 * the transaction has committed.
 */
export async function applyErasures(tx: Queryable, b: Batch, at: string): Promise<string[]> {
  const gone: string[] = [];
  for (const e of b.erasures) {
    const ids = [...e.items, ...e.edges];
    const parts = ids.filter((id) => id !== e.source);
    await tx.query(
      `DELETE FROM ops WHERE entity_id = ANY($1::text[]) AND kind IN ('item.upsert', 'edge.upsert')`,
      [ids],
    );
    await tx.query('DELETE FROM edges WHERE id = ANY($1::text[])', [e.edges]);
    await tx.query('DELETE FROM items WHERE id = ANY($1::text[])', [e.items]);
    await tx.query(
      `INSERT INTO erased_items (id, erased_by, erased_at) SELECT x, $2, $3 FROM unnest($1::text[]) AS t(x)
       ON CONFLICT (id) DO NOTHING`,
      [e.items, b.actor.user, at],
    );
    await tx.query(
      `INSERT INTO device_holdings (device_id, entity_id)
       SELECT DISTINCT device_id, $2 FROM device_holdings WHERE entity_id = ANY($1::text[])
       ON CONFLICT (device_id, entity_id) DO NOTHING`,
      [parts, e.source],
    );
    await tx.query('DELETE FROM device_holdings WHERE entity_id = ANY($1::text[])', [parts]);
    // The erasing device has erased it already.
    await tx.query('DELETE FROM device_holdings WHERE device_id = $1 AND entity_id = $2', [
      b.actor.deviceId,
      e.source,
    ]);
    const kept = await tx.query<{ blob: string }>(
      'SELECT DISTINCT blob FROM items WHERE blob = ANY($1::text[])',
      [e.blobs],
    );
    const unreferenced = e.blobs.filter((h) => !kept.some((k) => k.blob === h));
    await tx.query('DELETE FROM blob_uploads WHERE hash = ANY($1::text[])', [unreferenced]);
    gone.push(...unreferenced);
    await audit(tx, {
      at,
      actor: b.actor.user,
      action: 'item.erase',
      subject: e.source,
      details: { op: e.opId, items: e.items.length, edges: e.edges.length, blobs: unreferenced.length },
    });
  }
  return [...new Set(gone)];
}

/**
 * [S34], [S36] The device that pushed refused changes: a refused erase's parts are sent again (its
 * holdings go stale), and an id refused as erased is held, so the next pull sends the erase.
 */
export async function holdRefusedErasures(tx: Queryable, b: Batch, refusedOps: readonly string[]) {
  const stale = refusedOps.flatMap((id) => b.eraseStale.get(id) ?? []);
  if (stale.length > 0) {
    await tx.query(
      'UPDATE device_holdings SET stale = true WHERE device_id = $1 AND entity_id = ANY($2::text[])',
      [b.actor.deviceId, [...new Set(stale)]],
    );
  }
  if (b.tombstoneHits.size > 0) {
    await tx.query(
      `INSERT INTO device_holdings (device_id, entity_id) SELECT $1, x FROM unnest($2::text[]) AS t(x)
       ON CONFLICT (device_id, entity_id) DO NOTHING`,
      [b.actor.deviceId, [...b.tombstoneHits]],
    );
  }
}

type ErasedRow = {
  id: string;
  seq: number | string | null;
  actor: string | null;
  body: string | null;
  kind: string | null;
};
export type ErasedOpRow = {
  seq: number | string;
  actor: string;
  body: string;
  kind: string;
  entity_id: string;
};

/**
 * [S36] What a pull sends first: the erase of every erased id the device holds (once, whatever
 * scope its user sees now: it held a copy), within `limit`. The holdings are dropped (the page
 * record keeps them, so an unacknowledged page sends them again, [S19]); `full` when more wait.
 */
export async function erasuresFor(
  tx: Queryable,
  deviceId: string,
  limit: number,
): Promise<{ rows: ErasedOpRow[]; dropped: string[]; full: boolean }> {
  if (limit <= 0) return { rows: [], dropped: [], full: true };
  const picked = await tx.query<ErasedRow>(
    `SELECT h.entity_id AS id, o.seq, o.actor, o.body, o.kind
     FROM device_holdings h JOIN erased_items t ON t.id = h.entity_id
     LEFT JOIN LATERAL (
       -- The erase that made the tombstone: an erase any member sent earlier of an id out of sight
       -- was accepted and changed nothing ([S35]); it is never the one replicas are sent.
       SELECT seq, actor, body, kind FROM ops
       WHERE kind = 'item.erase' AND entity_id = h.entity_id AND actor = t.erased_by
       ORDER BY seq LIMIT 1
     ) o ON TRUE
     WHERE h.device_id = $1 ORDER BY h.entity_id LIMIT $2`,
    [deviceId, limit],
  );
  const dropped = picked.map((p) => p.id);
  if (dropped.length > 0) {
    await tx.query('DELETE FROM device_holdings WHERE device_id = $1 AND entity_id = ANY($2::text[])', [
      deviceId,
      dropped,
    ]);
  }
  const rows = picked
    .flatMap((p) =>
      p.seq !== null && p.actor !== null && p.body !== null && p.kind !== null
        ? [{ seq: p.seq, actor: p.actor, body: p.body, kind: p.kind, entity_id: p.id }]
        : [],
    )
    .sort((x, y) => Number(x.seq) - Number(y.seq));
  return { rows, dropped, full: picked.length === limit };
}
