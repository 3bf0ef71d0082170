/**
 * Erasing a source on the server (docs/SYNC_SPEC.md [S35], [S36]). An `item.erase` from a workspace
 * admin who can see the file or note deletes it with everything derived from it: its earlier
 * versions (items of its kind, in its namespace, keyed `<its source key>@v<n>` and superseded by
 * it), the sections of all of these, every edge from or to any of them, the ops that carried them
 * (their text), and the bytes no other item references. What is kept is a tombstone per erased
 * item (id, who, when, its source and the erase) and the erase op itself, which names only the id.
 * Every device that held any part of the source owes the erase until a pull sends it; while it
 * does, its writes of any part are refused (they would bring the text back) and it is sent the
 * erase. A device that owes nothing (it erased it, applied the erase, or never held it) may write
 * the id again: a file's id comes from its path, and the erase took only what was there.
 */
import type { Op } from '#shared/sync/protocol.ts';
import { audit } from '../audit.ts';
import type { Queryable } from '../db/types.ts';
import type { Batch } from './batch.ts';
import { bodyHash } from './canonical.ts';
import { type EdgeState, type ItemState, loadEdges, loadItems } from './state.ts';

type EraseOp = Extract<Op, { kind: 'item.erase' }>;

/** One accepted erase, applied when the batch is saved; `creators`: of the items it deletes. */
type Erasure = {
  opId: string;
  source: string;
  items: string[];
  edges: string[];
  blobs: string[];
  creators: string[];
};

/** An erased item the pushing device still owes the erase of: its source and that erase's seq. */
type Owed = { source: string; seq: number | null };

/** What the checks of a batch's erases read ([S35]), loaded with the batch. */
export type EraseContext = {
  /**
   * Ids the batch may not write ([S36]): tombstoned ids whose erase the pushing device still owes,
   * and what this batch erases (seq null: the device erased it itself).
   */
  erased: Map<string, Owed>;
  /** Source keys, from their winning ops: of erase targets and their candidate versions. */
  sourceKeys: Map<string, string>;
  erasures: Erasure[];
  /** Refused erases whose source the actor sees: the parts to send their device again ([S34]). */
  eraseStale: Map<string, string[]>;
  /** What each tombstoned id the batch names held (its blob or body hash): never written again. */
  erasedContent: Map<string, string>;
  /** Sources whose part's upsert was refused as erased, with the erase's seq: owed again. */
  tombstoneHits: Map<string, number>;
};

/**
 * Loads what the batch's erases are checked against into `items` and `edges`: each target, its
 * sections and candidate versions (with theirs), every edge of these, the source keys, and the
 * tombstones among the item ids the batch names that `deviceId` still owes the erase of: it holds
 * the source as owed, or the last page it was answered sent the erase and `ack` (the page the
 * device says it committed) is not that page.
 */
export async function loadEraseContext(
  tx: Queryable,
  deviceId: string,
  ack: string | null,
  ops: readonly Op[],
  itemIds: ReadonlySet<string>,
  items: Map<string, ItemState>,
  edges: Map<string, EdgeState>,
): Promise<EraseContext> {
  const targets = ops.flatMap((o) => (o.kind === 'item.erase' ? [o.itemId] : []));
  const ctx: EraseContext = {
    erased: new Map(),
    sourceKeys: new Map(),
    erasures: [],
    eraseStale: new Map(),
    tombstoneHits: new Map(),
    erasedContent: new Map(),
  };
  const named = [...itemIds];
  if (named.length > 0) {
    const rows = await tx.query<{
      id: string;
      source: string;
      seq: number | string | null;
      owed: boolean;
      content: string | null;
    }>(
      `SELECT t.id, COALESCE(t.source_id, t.id) AS source, t.erase_seq AS seq, t.content,
         EXISTS (SELECT 1 FROM device_holdings h WHERE h.device_id = $2
                   AND h.entity_id = COALESCE(t.source_id, t.id) AND h.erase_seq IS NOT NULL) AS owed
       FROM erased_items t WHERE t.id = ANY($1::text[])`,
      [named, deviceId],
    );
    const sent = rows.length > 0 ? await unacknowledgedErasures(tx, deviceId, ack) : new Set<string>();
    for (const r of rows) {
      if (r.content !== null) ctx.erasedContent.set(r.id, r.content);
      if (r.owed || sent.has(r.source))
        ctx.erased.set(r.id, { source: r.source, seq: r.seq === null ? null : Number(r.seq) });
    }
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
  for (const [id, item] of await winningItems(tx, [...targets, ...versions]))
    if (typeof item.source_key === 'string') ctx.sourceKeys.set(id, item.source_key);
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

/** The sources whose erase the device's last answered page sent, unless `ack` says it committed it ([S19]). */
async function unacknowledgedErasures(
  tx: Queryable,
  deviceId: string,
  ack: string | null,
): Promise<Set<string>> {
  const rows = await tx.query<{ page_id: string; unerased: string }>(
    'SELECT page_id, unerased FROM pull_pages WHERE device_id = $1',
    [deviceId],
  );
  const page = rows[0];
  const pairs = page && page.page_id !== ack ? (JSON.parse(page.unerased) as [string, number][]) : [];
  return new Set(pairs.map(([id]) => id));
}

/** The items and edges an erase of `source` deletes, as the batch stands now. */
function partsOf(
  b: Batch,
  source: ItemState,
): { items: string[]; edges: string[]; blobs: string[]; creators: string[] } {
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
  const all = [source, ...versions, ...sections];
  const blobs = all.flatMap((s) => (s.blob ? [s.blob] : []));
  const creators = all.flatMap((s) => (s.createdBy ? [s.createdBy] : []));
  return { items, edges, blobs: [...new Set(blobs)], creators: [...new Set(creators)] };
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
  const current = b.items.get(id);
  const seen = current && b.visible.has(current.scope) ? current : undefined;
  const refusal = !b.visible.has(op.scope)
    ? `${b.actor.user} cannot write in scope ${op.scope}`
    : !seen
      ? null
      : op.scope !== seen.scope
        ? `op scope ${op.scope} differs from the item's scope ${seen.scope}`
        : b.actor.isAdmin
          ? kindRefusal(b, seen)
          : `only a workspace admin can erase ${id}: ${b.actor.user} is not one`;
  if (!seen) return refusal;
  if (refusal) {
    // The device erased what it could see of it: it is sent the server's state again ([S34]).
    const parts = partsOf(b, seen);
    b.eraseStale.set(op.id, [...parts.items, ...parts.edges]);
    return refusal;
  }
  const parts = partsOf(b, seen);
  for (const item of parts.items) {
    b.items.delete(item);
    b.erased.set(item, { source: id, seq: null });
  }
  for (const edge of parts.edges) b.edges.delete(edge);
  b.erasures.push({ opId: op.id, source: id, ...parts });
  return null;
}

/**
 * Applies the batch's accepted erases in its transaction ([S35], [S36]): rows, the ops that carried
 * them, holdings (a device that held any part owes the erase: it holds the source's id with the
 * erase's seq), the tombstones and the audit entry. Uploads of the bytes nothing references any
 * more are dropped: the erased items' creators', and others' older than `graceMs` (a teammate who
 * uploaded the same bytes a moment ago is about to push the item that needs them, as
 * src/server/blobs/uploads.ts sweeps). Answers the hashes left with no upload, whose bytes are
 * deleted once the transaction has committed.
 */
export async function applyErasures(
  tx: Queryable,
  b: Batch,
  at: string,
  graceMs: number,
  seqs: ReadonlyMap<string, number>,
): Promise<string[]> {
  const gone: string[] = [];
  const before = new Date(Date.parse(at) - graceMs).toISOString();
  for (const e of b.erasures) {
    const ids = [...e.items, ...e.edges];
    const parts = ids.filter((id) => id !== e.source);
    const seq = seqs.get(e.opId) ?? null;
    // What each erased item held, from its winning op, before the ops go ([S36]).
    const content = new Map(
      [...(await winningItems(tx, e.items))].map(([id, item]) => [
        id,
        typeof item.blob === 'string' ? item.blob : bodyHash(typeof item.body === 'string' ? item.body : ''),
      ]),
    );
    await tx.query(
      `DELETE FROM ops WHERE entity_id = ANY($1::text[]) AND kind IN ('item.upsert', 'edge.upsert')`,
      [ids],
    );
    await tx.query('DELETE FROM edges WHERE id = ANY($1::text[])', [e.edges]);
    await tx.query('DELETE FROM items WHERE id = ANY($1::text[])', [e.items]);
    // A source written again after an earlier erase keeps one tombstone, naming the last erase.
    await tx.query(
      `INSERT INTO erased_items (id, erased_by, erased_at, source_id, erase_seq, content)
       SELECT x, $2, $3, $4, $5, c FROM unnest($1::text[], $6::text[]) AS t(x, c)
       ON CONFLICT (id) DO UPDATE SET erased_by = EXCLUDED.erased_by, erased_at = EXCLUDED.erased_at,
         source_id = EXCLUDED.source_id, erase_seq = EXCLUDED.erase_seq, content = EXCLUDED.content`,
      [e.items, b.actor.user, at, e.source, seq, e.items.map((id) => content.get(id) ?? null)],
    );
    await tx.query(
      `INSERT INTO device_holdings (device_id, entity_id, erase_seq)
       SELECT DISTINCT device_id, $2, $3::bigint FROM device_holdings WHERE entity_id = ANY($1::text[])
       ON CONFLICT (device_id, entity_id) DO UPDATE SET erase_seq = EXCLUDED.erase_seq`,
      [ids, e.source, seq],
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
    await tx.query(
      `DELETE FROM blob_uploads WHERE hash = ANY($1::text[]) AND (user_id = ANY($2::text[]) OR uploaded_at < $3)`,
      [unreferenced, e.creators, before],
    );
    const uploaded = await tx.query<{ hash: string }>(
      'SELECT DISTINCT hash FROM blob_uploads WHERE hash = ANY($1::text[])',
      [unreferenced],
    );
    const deleted = unreferenced.filter((h) => !uploaded.some((u) => u.hash === h));
    // Queued in this transaction: a crash before the bytes go leaves them for the sweep.
    await tx.query(
      `INSERT INTO blob_deletions (hash, queued_at) SELECT x, $2 FROM unnest($1::text[]) AS t(x)
       ON CONFLICT (hash) DO NOTHING`,
      [deleted, at],
    );
    gone.push(...deleted);
    await audit(tx, {
      at,
      actor: b.actor.user,
      action: 'item.erase',
      subject: e.source,
      details: { op: e.opId, items: e.items.length, edges: e.edges.length, blobs: deleted.length },
    });
  }
  return [...new Set(gone)];
}

/**
 * [S34], [S36] The device that pushed refused changes: a refused erase's parts are sent again (its
 * holdings go stale), and the source of an id refused as erased is held as owed, so the next pull
 * sends the erase.
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
      `INSERT INTO device_holdings (device_id, entity_id, erase_seq)
       SELECT $1, x, s FROM unnest($2::text[], $3::bigint[]) AS t(x, s)
       ON CONFLICT (device_id, entity_id) DO UPDATE SET erase_seq = EXCLUDED.erase_seq`,
      [b.actor.deviceId, [...b.tombstoneHits.keys()], [...b.tombstoneHits.values()]],
    );
  }
}

export type ErasedOpRow = {
  seq: number | string;
  actor: string;
  body: string;
  kind: string;
  entity_id: string;
};

/**
 * [S36] What a pull sends first: the erase every held source is owed (once, whatever scope its
 * user sees now: it held a copy), within `limit`. The holdings are dropped (the page record keeps
 * them with their erase, so an unacknowledged page owes them again, [S19]); `full` when more wait.
 */
export async function erasuresFor(
  tx: Queryable,
  deviceId: string,
  limit: number,
): Promise<{ rows: ErasedOpRow[]; dropped: [string, number][]; full: boolean }> {
  if (limit <= 0) return { rows: [], dropped: [], full: true };
  const picked = await tx.query<{ id: string; erase_seq: number | string }>(
    `SELECT entity_id AS id, erase_seq FROM device_holdings
     WHERE device_id = $1 AND erase_seq IS NOT NULL ORDER BY entity_id LIMIT $2`,
    [deviceId, limit],
  );
  const dropped = picked.map((p): [string, number] => [p.id, Number(p.erase_seq)]);
  if (dropped.length === 0) return { rows: [], dropped, full: false };
  await tx.query('DELETE FROM device_holdings WHERE device_id = $1 AND entity_id = ANY($2::text[])', [
    deviceId,
    dropped.map(([id]) => id),
  ]);
  const rows = await tx.query<ErasedOpRow>(
    `SELECT seq, actor, body, kind, entity_id FROM ops
     WHERE kind = 'item.erase' AND seq = ANY($1::bigint[]) ORDER BY seq`,
    [[...new Set(dropped.map(([, seq]) => seq))]],
  );
  return { rows, dropped, full: picked.length === limit };
}

/**
 * The item each id holds now, as its winning op wrote it: parsed here, not cast to jsonb by the
 * database, which refuses some text JSON allows (an escaped NUL, U+0000, that an op stored before
 * the push refused it); an erase must not fail on what it erases.
 */
async function winningItems(
  tx: Queryable,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await tx.query<{ id: string; body: string }>(
    'SELECT i.id, o.body FROM items i JOIN ops o ON o.seq = i.seq WHERE i.id = ANY($1::text[])',
    [ids],
  );
  const out = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const item = (JSON.parse(r.body) as { item?: Record<string, unknown> }).item;
    if (item) out.set(r.id, item);
  }
  return out;
}
