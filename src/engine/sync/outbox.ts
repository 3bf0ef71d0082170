/**
 * The outbox. Triggers (migration 0006) record which item or edge changed, in the transaction of
 * the change. `freezeChanges` turns each recorded change into an operation: the row's synced
 * columns as they are now (plus its vector and model), a clock stamp and a fresh id, stored as
 * the exact JSON that will be sent. A frozen operation is resent byte for byte until the server
 * acknowledges it, so a push cut off anywhere is repeated, never duplicated (the server applies
 * each id once). A newer change to the same row replaces an older operation not yet acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { type Op, OpSchema, type SyncEdge, type SyncItem } from '../../shared/sync/protocol.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { getRow, type ItemRow } from '../items.ts';
import { narrowestScope } from '../scope.ts';
import { ReplicaClock } from './clock.ts';

export type OutboxEntry = { seq: number; opId: string; kind: string; ref: string; hlc: string; body: string };

/** The columns of an item that sync (never local-only ones: index_error, embedded_model, workspace_id). */
export const ITEM_COLUMNS = [
  'id',
  'storage_kind',
  'kind',
  'label',
  'summary',
  'body',
  'source_key',
  'canonical_type',
  'canonical_value',
  'blob',
  'format',
  'size',
  'file_id',
  'ordinal',
  'locator',
  'indexed',
  'health',
  'scope',
  'origin_actor',
  'origin_source',
  'origin_run',
  'origin_at',
  'occurred_at',
  'retired_at',
  'superseded_by',
  'created_at',
  'updated_at',
  'version',
] as const satisfies readonly (keyof ItemRow & keyof SyncItem)[];

export const EDGE_COLUMNS = [
  'id',
  'type',
  'from_id',
  'to_id',
  'props',
  'origin_actor',
  'origin_source',
  'origin_run',
  'origin_at',
  'retired_at',
] as const satisfies readonly (keyof SyncEdge)[];

export type EdgeRow = SyncEdge;

/** The synced part of an item row, with its vector when it has one (only synced columns travel). */
export function syncItemOf(db: Db, row: ItemRow): SyncItem {
  const item: Record<string, unknown> = {};
  for (const c of ITEM_COLUMNS) item[c] = row[c];
  let vector: SyncItem['vector'] = null;
  if (row.embedded_model && row.retired_at === null) {
    const hit = stmt(db, 'SELECT embedding FROM vec_items WHERE item_rowid = ?').get(BigInt(row.rowid)) as
      | { embedding: Buffer }
      | undefined;
    if (hit) vector = { model: row.embedded_model, data: Buffer.from(hit.embedding).toString('base64') };
  }
  return { ...(item as Omit<SyncItem, 'vector'>), vector };
}

export function getEdge(db: Db, id: string): EdgeRow | undefined {
  return stmt(db, `SELECT ${EDGE_COLUMNS.join(', ')} FROM edges WHERE id = ?`).get(id) as EdgeRow | undefined;
}

/** An edge writes in the narrowest scope of its two ends; null when an end is unknown or they clash. */
export function edgeScope(db: Db, edge: Pick<EdgeRow, 'from_id' | 'to_id'>): string | null {
  const from = getRow(db, edge.from_id);
  const to = getRow(db, edge.to_id);
  if (!from || !to) return null;
  return narrowestScope([from.scope, to.scope]);
}

type Change = { kind: 'item' | 'edge'; ref: string; changed_ms: number };

/** Freezes every recorded change into an outbox operation. Returns how many were frozen. */
export function freezeChanges(db: Db, now: () => number = Date.now): number {
  return writeTx(db, () => freezeInTx(db, now));
}

/** The same, inside a transaction the caller holds (apply runs it first). */
export function freezeInTx(db: Db, now: () => number = Date.now): number {
  // Items before edges: the server checks an edge against its copy of both ends, so they go first.
  const changes = stmt(
    db,
    "SELECT kind, ref, changed_ms FROM sync_changes ORDER BY kind = 'edge', changed_ms, ref",
  ).all() as Change[];
  if (changes.length === 0) return 0;
  const clock = new ReplicaClock(db, now);
  let frozen = 0;
  for (const c of changes) {
    stmt(db, 'DELETE FROM sync_changes WHERE kind = ? AND ref = ?').run(c.kind, c.ref);
    const built = buildOp(db, c, clock);
    if (!built) continue;
    if ('refused' in built) {
      recordRefusal(db, null, c.kind, c.ref, built.refused);
      continue;
    }
    const op = built.op;
    // Superseded by this newer state: if the older one reached the server, this one wins there too.
    stmt(db, 'DELETE FROM sync_outbox WHERE kind = ? AND ref = ?').run(c.kind, c.ref);
    stmt(db, 'INSERT INTO sync_outbox (op_id, kind, ref, hlc, body) VALUES (?, ?, ?, ?, ?)').run(
      op.id,
      c.kind,
      c.ref,
      op.hlc,
      JSON.stringify(op),
    );
    setVersion(db, c.kind, c.ref, op.hlc, op.id);
    frozen += 1;
  }
  return frozen;
}

function buildOp(db: Db, c: Change, clock: ReplicaClock): { op: Op } | { refused: string } | null {
  const id = randomUUID();
  let candidate: unknown;
  if (c.kind === 'item') {
    const row = getRow(db, c.ref);
    if (!row) return null; // deleted since (an eviction): nothing to send
    candidate = { id, hlc: '', kind: 'item.upsert', scope: row.scope, item: syncItemOf(db, row) };
  } else {
    const edge = getEdge(db, c.ref);
    if (!edge) return null;
    const scope = edgeScope(db, edge);
    if (!scope)
      return {
        refused: 'an end of the edge is missing here, or its two ends have scopes that cannot be compared',
      };
    candidate = { id, hlc: '', kind: 'edge.upsert', scope, edge };
  }
  const hlc = clock.stamp(c.changed_ms);
  const parsed = OpSchema.safeParse({ ...(candidate as object), hlc });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { refused: `not sendable: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim() };
  }
  return { op: parsed.data };
}

export function setVersion(db: Db, kind: string, ref: string, hlc: string, opId: string): void {
  stmt(db, 'INSERT OR REPLACE INTO sync_versions (kind, ref, hlc, op_id) VALUES (?, ?, ?, ?)').run(
    kind,
    ref,
    hlc,
    opId,
  );
}

export function getVersion(db: Db, kind: string, ref: string): { hlc: string; opId: string } | undefined {
  const row = stmt(db, 'SELECT hlc, op_id FROM sync_versions WHERE kind = ? AND ref = ?').get(kind, ref) as
    | { hlc: string; op_id: string }
    | undefined;
  return row ? { hlc: row.hlc, opId: row.op_id } : undefined;
}

export function recordRefusal(db: Db, opId: string | null, kind: string, ref: string, reason: string): void {
  stmt(db, 'INSERT INTO sync_refused (op_id, kind, ref, reason, at) VALUES (?, ?, ?, ?, ?)').run(
    opId,
    kind,
    ref,
    reason.slice(0, 2000),
    new Date().toISOString(),
  );
}

/** Every item and edge becomes a change to send (joining a server: the first push sends everything). */
export function recordAll(db: Db): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'item', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM items`,
  ).run();
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'edge', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM edges`,
  ).run();
}

/** The next operations to send, oldest first, within the protocol's count and size limits. */
export function nextBatch(db: Db, maxOps: number, maxBytes: number): OutboxEntry[] {
  const rows = stmt(
    db,
    'SELECT seq, op_id AS opId, kind, ref, hlc, body FROM sync_outbox ORDER BY seq LIMIT ?',
  ).all(maxOps) as OutboxEntry[];
  const out: OutboxEntry[] = [];
  let bytes = 16;
  for (const r of rows) {
    bytes += Buffer.byteLength(r.body) + 1;
    if (out.length > 0 && bytes > maxBytes) break;
    out.push(r);
  }
  return out;
}

/** Acknowledged (accepted or refused for good) operations leave the outbox. */
export function removeFromOutbox(db: Db, opIds: readonly string[]): void {
  const del = stmt(db, 'DELETE FROM sync_outbox WHERE op_id = ?');
  for (const id of opIds) del.run(id);
}

export function pendingCount(db: Db): number {
  const a = stmt(db, 'SELECT COUNT(*) AS n FROM sync_outbox').get() as { n: number };
  const b = stmt(db, 'SELECT COUNT(*) AS n FROM sync_changes').get() as { n: number };
  return a.n + b.n;
}
