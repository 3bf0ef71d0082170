/**
 * The outbox. Triggers (migrations 0006 and 0009) record which item, edge or review proposal
 * changed, in the transaction of the change. `freezeChanges` turns each recorded change into an
 * operation: the row's synced columns as they are now (plus its vector and model), a clock stamp
 * and a fresh id, stored as the exact JSON that will be sent. A frozen operation is resent byte for byte until the server
 * acknowledges it, so a push cut off anywhere is repeated, never duplicated (the server applies
 * each id once). A newer change to the same row replaces an older operation not yet acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { type Op, OpSchema, type SyncEdge, type SyncItem } from '#shared/sync/protocol.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { narrowestScope } from '../scope.ts';
import { type RecordRow, syncRecordOf } from '../tree/share.ts';
import { agentRecordCandidate, agentRecordKindOf, recordAllAgentRecords } from './agent-records.ts';
import { ReplicaClock } from './clock.ts';
import { decisionOf, getProposalRow, syncProposalOf } from './proposals.ts';

export type OutboxEntry = { seq: number; opId: string; kind: string; ref: string; hlc: string; body: string };

/**
 * The columns of an item that sync (never local-only ones: index_error, read_by_ocr, embedded_model,
 * workspace_id). A file read by OCR (docs/OCR.md [O9]) syncs its sections, whose locators say so.
 */
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

type EdgeRow = SyncEdge;

/** The synced part of an item row, with its vector when it has one (only synced columns travel). */
function syncItemOf(db: Db, row: ItemRow): SyncItem {
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

function getEdge(db: Db, id: string): EdgeRow | undefined {
  return stmt(db, `SELECT ${EDGE_COLUMNS.join(', ')} FROM edges WHERE id = ?`).get(id) as EdgeRow | undefined;
}

/**
 * The scope an edge is sent with: the narrowest of its two ends' scopes here. When an end is not
 * here or the two cannot be compared (an end moved to another team since), the replica does not
 * decide alone ([S34] in docs/SYNC_SPEC.md): it sends the edge with an end's scope (else org), the
 * server, which never trusts a client's scope ([S4]), refuses it by its own copies of the ends,
 * and the refusal gives the replica the server's version back. Refused here, the edge would stay
 * this replica's newer version of something the server holds older, and never converge ([C7]).
 */
function edgeScope(db: Db, edge: Pick<EdgeRow, 'from_id' | 'to_id'>): string {
  const from = getRow(db, edge.from_id);
  const to = getRow(db, edge.to_id);
  if (from && to) return narrowestScope([from.scope, to.scope]) ?? from.scope;
  return from?.scope ?? to?.scope ?? 'org';
}

/**
 * What a recorded change names: an item, an edge, a review proposal's creation (`proposal`) or its
 * decision (`decide`); the last two are the proposal's id.
 */
export type ChangeKind = 'item' | 'edge' | 'proposal' | 'decide';
type Change = { kind: ChangeKind; ref: string; changed_ms: number };

/** Freezes every recorded change into an outbox operation. Returns how many were frozen. */
export function freezeChanges(db: Db, now: () => number = Date.now): number {
  return writeTx(db, () => freezeInTx(db, now));
}

/** The same, inside a transaction the caller holds (apply runs it first). */
export function freezeInTx(db: Db, now: () => number = Date.now): number {
  // Items, then proposals, then decisions, then edges: the server checks an edge against its copy
  // of both ends and a decision against its proposal, and an approval's note goes before the
  // decision that names it.
  const changes = stmt(
    db,
    `SELECT kind, ref, changed_ms FROM sync_changes
     ORDER BY CASE kind WHEN 'item' THEN 0 WHEN 'proposal' THEN 1 WHEN 'decide' THEN 2 ELSE 3 END, changed_ms, ref`,
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

type Candidate = { body: object } | { refused: string } | null;

/** The op a change becomes (without id and hlc), null when there is nothing to send. */
function candidateOf(db: Db, c: Change): Candidate {
  if (c.kind === 'item') {
    if (agentRecordKindOf(c.ref)) return agentRecordCandidate(db, c.ref); // [C17]
    const row = getRow(db, c.ref);
    if (!row) return treeRecordCandidate(db, c.ref); // else deleted since (an eviction): nothing to send
    return { body: { kind: 'item.upsert', scope: row.scope, item: syncItemOf(db, row) } };
  }
  if (c.kind === 'edge') {
    const edge = getEdge(db, c.ref);
    if (!edge) return null;
    return { body: { kind: 'edge.upsert', scope: edgeScope(db, edge), edge } };
  }
  const row = getProposalRow(db, c.ref);
  if (row?.decision !== 'review') return null; // evicted since, or a local log
  if (c.kind === 'proposal')
    return { body: { kind: 'proposal.upsert', scope: row.scope, proposal: syncProposalOf(db, row) } };
  const decision = decisionOf(row);
  return decision ? { body: decision } : null;
}

/** A repository connected here syncs its record under an item id (docs/TREES.md [T13]). */
function treeRecordCandidate(db: Db, ref: string): Candidate {
  const row = stmt(
    db,
    `SELECT id, item_id, root, scope, record, retired_at, created_by, created_at, built_at, updated_at, version
     FROM tree_sources WHERE item_id = ? AND remote = 0`,
  ).get(ref) as RecordRow | undefined;
  const item = row ? syncRecordOf(row, basename(row.root)) : null;
  if (!row || !item) return null;
  return { body: { kind: 'item.upsert', scope: row.scope, item: { ...item, vector: null } } };
}

function buildOp(db: Db, c: Change, clock: ReplicaClock): { op: Op } | { refused: string } | null {
  const candidate = candidateOf(db, c);
  if (!candidate) return null;
  if ('refused' in candidate) return candidate;
  const id = randomUUID();
  const hlc = clock.stamp(c.changed_ms);
  const parsed = OpSchema.safeParse({ id, ...candidate.body, hlc });
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

/** This replica holds no version of the row: the next op pulled for it applies, whatever its clock. */
export function forgetVersion(db: Db, kind: string, ref: string): void {
  stmt(db, 'DELETE FROM sync_versions WHERE kind = ? AND ref = ?').run(kind, ref);
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

/** Records a change to send again (the triggers only see changes of the rows themselves). */
export function recordChange(db: Db, kind: ChangeKind, ref: string): void {
  stmt(db, 'DELETE FROM sync_changes WHERE kind = ? AND ref = ?').run(kind, ref);
  stmt(db, 'INSERT INTO sync_changes (kind, ref, changed_ms) VALUES (?, ?, ?)').run(kind, ref, Date.now());
}

/** A row whose change the server accepted has no refusal left to report. */
export function clearRefusals(db: Db, kind: string, ref: string): void {
  stmt(db, 'DELETE FROM sync_refused WHERE kind = ? AND ref = ?').run(kind, ref);
}

/**
 * Every item, tree record, agent record ([C17]), edge and review proposal becomes a change to send (joining a server: the first push
 * sends everything). A decided review proposal is sent as made and then decided.
 */
export function recordAll(db: Db): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'item', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM items`,
  ).run();
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'item', item_id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM tree_sources
     WHERE remote = 0 AND item_id IS NOT NULL AND record IS NOT NULL`,
  ).run();
  recordAllAgentRecords(db);
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'edge', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM edges`,
  ).run();
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'proposal', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM proposals
     WHERE decision = 'review' AND state IN ('pending', 'approved', 'rejected')`,
  ).run();
  stmt(
    db,
    `INSERT OR REPLACE INTO sync_changes (kind, ref, changed_ms)
     SELECT 'decide', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM proposals
     WHERE decision = 'review' AND state IN ('approved', 'rejected')`,
  ).run();
}

/**
 * The next operations to send, oldest first, within the protocol's count and size limits. An erase
 * ends its batch: what was written after it (a new file at the erased path has the erased id) is
 * sent once the server has applied the erase, which it refuses within the erase's own batch
 * (docs/SYNC_SPEC.md [S36]).
 */
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
    if (r.kind === 'erase') break;
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
