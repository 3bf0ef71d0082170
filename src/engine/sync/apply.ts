/**
 * Applying pulled operations. Last writer wins per item and per edge by (hlc, op id): an
 * operation changes a row only when it is greater than the version the row holds, so applying
 * the same operations twice, or in any order, ends in the same state. The search index moves in
 * step: FTS rows follow isSearchable, a vector made by the local model is stored, any other
 * leaves the item without one (embedded_model NULL) for the local model to embed later.
 * Review proposals follow their own rules (apply-proposals.ts): created once, decided once, the
 * server's decision wins. A pulled erase deletes the source with everything derived from it, whatever
 * this replica holds of it (docs/SYNC_SPEC.md [C16], docs/FACTS.md [K14]).
 * Everything here runs with sync_applying set, so the outbox triggers stay quiet.
 */
import { evictedKind, type Op, type PulledOp, type SyncEdge, type SyncItem } from '#shared/sync/protocol.ts';
import { type Db, stmt } from '../db/driver.ts';
import { erasePulled, purgeFullText } from '../knowledge/erase.ts';
import {
  FtsBatch,
  ftsDelete,
  getRow,
  type ItemRow,
  isSearchable,
  vecDelete,
  vecUpsert,
} from '../read/items.ts';
import type { Surface } from '../telemetry.ts';
import { applyTreeRecord, evictTreeRecord } from '../tree/share.ts';
import { agentRecordKindOf, applyAgentRecord, evictAgentRecord, isAgentRecordItem } from './agent-records.ts';
import { applyProposalCreate, applyProposalDecision, evictProposal } from './apply-proposals.ts';
import { compareVersions, ReplicaClock } from './clock.ts';
import { EDGE_COLUMNS, freezeInTx, getVersion, ITEM_COLUMNS, setVersion } from './outbox.ts';

export type ApplyContext = {
  db: Db;
  workspaceId: string;
  /** The model this replica embeds with (null when it has none: pulled vectors are kept as they are). */
  localModel: string | null;
  /** Blobs this replica has, to note the ones to fetch. */
  hasBlob?: (hash: string) => boolean;
  /** Where a decision overruled by the server is logged (the host's surface). */
  surface?: Surface;
};

/**
 * `proposals`: proposal ops that changed the replica plus evicted proposals (the inbox refreshes).
 * `erasedBlobs`: bytes pulled erases left unreferenced, to delete once the page has committed.
 */
export type ApplyResult = {
  applied: number;
  skipped: number;
  evicted: number;
  proposals: number;
  /** Pulled erases that found something here ([C16]). */
  erased: number;
  erasedBlobs: string[];
};

const VECTOR_DIMS = 384;

/** Every synced column but the id, in the order the statements below bind them. */
const ITEM_SET = ITEM_COLUMNS.filter((c): c is Exclude<(typeof ITEM_COLUMNS)[number], 'id'> => c !== 'id');

/**
 * Applies one page of pulled operations and evictions, and moves the cursor, in ONE transaction
 * (the caller's): a crash leaves either all of the page or none of it. The page id, when given,
 * is stored with the cursor: it is the `ack` of the next pull ([S19]).
 */
export function applyPage(
  ctx: ApplyContext,
  page: { ops: readonly PulledOp[]; evict: readonly string[]; cursor?: number; page?: string },
): ApplyResult {
  const { db } = ctx;
  // Local changes not yet frozen get their clock first, so they compete on equal terms.
  freezeInTx(db);
  stmt(db, 'INSERT OR IGNORE INTO sync_applying (flag) VALUES (1)').run();
  try {
    const clock = new ReplicaClock(db);
    const result: ApplyResult = {
      applied: 0,
      skipped: 0,
      evicted: 0,
      proposals: 0,
      erased: 0,
      erasedBlobs: [],
    };
    // Full-text changes of the page's items are applied together (see FtsBatch), before anything
    // that reads or changes the full-text index directly (a decision's note, an eviction).
    const fts = new FtsBatch();
    for (const pulled of page.ops) {
      clock.observe(pulled.op.hlc);
      if (pulled.op.kind.startsWith('proposal.') || pulled.op.kind === 'item.erase') fts.apply(db);
      const changed =
        pulled.op.kind === 'item.erase'
          ? applyErase(db, pulled.op.itemId, result)
          : applyOp(ctx, pulled.op, pulled.actor, fts);
      if (changed) result.applied += 1;
      else result.skipped += 1;
      if (changed && pulled.op.kind.startsWith('proposal.')) result.proposals += 1;
    }
    fts.apply(db);
    // What the page erased leaves the full-text index's segments too, once for the page.
    if (result.erased > 0) purgeFullText(db);
    for (const id of page.evict) {
      const kind = evictedKind(id);
      const gone =
        kind === 'edge' ? evictEdge(db, id) : kind === 'proposal' ? evictProposal(db, id) : evictItem(db, id);
      if (gone) result.evicted += 1;
      if (gone && kind === 'proposal') result.proposals += 1;
    }
    if (page.cursor !== undefined) {
      stmt(db, 'UPDATE sync_state SET cursor = MAX(cursor, ?) WHERE id = 1').run(page.cursor);
    }
    if (page.page !== undefined) {
      stmt(db, 'UPDATE sync_state SET pull_page = ? WHERE id = 1').run(page.page);
    }
    return result;
  } finally {
    stmt(db, 'DELETE FROM sync_applying').run();
  }
}

/**
 * [C16] An erase is no version of a row: it deletes whatever this replica holds of the source,
 * however new its own copy (the server refuses every later write of it, [S36]). Applying it twice
 * finds nothing the second time.
 */
function applyErase(db: Db, id: string, result: ApplyResult): boolean {
  const { erased, blobs } = erasePulled(db, id);
  result.erasedBlobs.push(...blobs);
  if (erased) result.erased += 1;
  return erased;
}

/** One operation, pushed by `actor` (as the server names them); true when it won and changed the replica. */
function applyOp(
  ctx: ApplyContext,
  op: Exclude<Op, { kind: 'item.erase' }>,
  actor: string,
  fts: FtsBatch,
): boolean {
  const proposals = { db: ctx.db, workspaceId: ctx.workspaceId, surface: ctx.surface ?? 'cli' };
  if (op.kind === 'proposal.upsert') return applyProposalCreate(proposals, op);
  if (op.kind === 'proposal.decide') return applyProposalDecision(proposals, op, actor);
  const kind = op.kind === 'item.upsert' ? 'item' : 'edge';
  const ref = op.kind === 'item.upsert' ? op.item.id : op.edge.id;
  const held = getVersion(ctx.db, kind, ref);
  if (held && compareVersions(held, { hlc: op.hlc, opId: op.id }) >= 0) return false;
  // A tree record is no item: it becomes a tree to build here (docs/TREES.md [T13]).
  if (op.kind === 'item.upsert' && op.item.storage_kind === 'tree')
    applyTreeRecord(ctx.db, ctx.workspaceId, op.item);
  // An agent, a brain version or an observation is no item either ([C17]).
  else if (op.kind === 'item.upsert' && isAgentRecordItem(op.item))
    applyAgentRecord(ctx.db, ctx.workspaceId, op.item);
  else if (op.kind === 'item.upsert') writeItem(ctx, op.item, fts);
  else writeEdge(ctx.db, op.edge);
  setVersion(ctx.db, kind, ref, op.hlc, op.id);
  markReceived(ctx.db, kind, ref);
  // A local operation not yet sent lost to this one everywhere: it need not travel.
  stmt(ctx.db, 'DELETE FROM sync_outbox WHERE kind = ? AND ref = ?').run(kind, ref);
  return true;
}

function writeItem(ctx: ApplyContext, item: SyncItem, fts: FtsBatch): void {
  const { db } = ctx;
  const prev = getRow(db, item.id);
  const values = ITEM_SET.map((c) => item[c]);
  if (prev) {
    if (isSearchable(prev)) fts.remove(prev);
    stmt(
      db,
      `UPDATE items SET ${ITEM_SET.map((c) => `${c} = ?`).join(', ')}, workspace_id = ?, index_error = NULL
       WHERE id = ?`,
    ).run(...values, ctx.workspaceId, item.id);
  } else {
    stmt(
      db,
      `INSERT INTO items (id, workspace_id, ${ITEM_SET.join(', ')}) VALUES (?, ?, ${ITEM_SET.map(() => '?').join(', ')})`,
    ).run(item.id, ctx.workspaceId, ...values);
  }
  const row = getRow(db, item.id) as ItemRow;
  if (isSearchable(row)) fts.add(row);
  writeVector(ctx, prev, row, item.vector);
  if (item.blob && item.storage_kind === 'file' && ctx.hasBlob && !ctx.hasBlob(item.blob)) {
    stmt(db, 'INSERT OR IGNORE INTO sync_blobs_wanted (hash) VALUES (?)').run(item.blob);
  }
}

function writeVector(
  ctx: ApplyContext,
  prev: ItemRow | undefined,
  row: ItemRow,
  vector: SyncItem['vector'],
): void {
  const { db } = ctx;
  if (row.retired_at !== null) {
    vecDelete(db, row.rowid);
    stmt(db, 'UPDATE items SET embedded_model = NULL WHERE rowid = ?').run(row.rowid);
    return;
  }
  const decoded = vector ? decodeVector(vector.data) : null;
  if (vector && decoded && (ctx.localModel === null || vector.model === ctx.localModel)) {
    vecUpsert(db, row, vector.model, decoded);
    return;
  }
  // The same text this replica already embedded keeps its vector (re-filed under the new scope).
  const kept =
    prev?.embedded_model && prev.label === row.label && prev.body === row.body ? keptVector(db, prev) : null;
  if (kept && prev?.embedded_model) {
    vecUpsert(db, row, prev.embedded_model, kept);
    return;
  }
  vecDelete(db, row.rowid);
  stmt(db, 'UPDATE items SET embedded_model = NULL WHERE rowid = ?').run(row.rowid);
}

function keptVector(db: Db, prev: ItemRow): Float32Array | null {
  const hit = stmt(db, 'SELECT embedding FROM vec_items WHERE item_rowid = ?').get(BigInt(prev.rowid)) as
    | { embedding: Buffer }
    | undefined;
  return hit ? new Float32Array(new Uint8Array(hit.embedding).buffer) : null;
}

function decodeVector(data: string): Float32Array | null {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== VECTOR_DIMS * 4) return null;
  const copy = new Uint8Array(bytes).buffer;
  const v = new Float32Array(copy);
  return v.every(Number.isFinite) ? v : null;
}

function writeEdge(db: Db, edge: SyncEdge): void {
  const cols = EDGE_COLUMNS;
  stmt(
    db,
    `INSERT INTO edges (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${cols
       .filter((c) => c !== 'id')
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  ).run(...cols.map((c) => edge[c]));
}

/**
 * What came from the server: a replica told it is revoked removes it, keeping what was only made
 * here ([S32]). An item is received once a pulled op changed it, even if this replica made it first.
 */
function markReceived(db: Db, kind: 'item' | 'edge' | 'proposal', ref: string): void {
  stmt(db, 'INSERT OR IGNORE INTO sync_received (kind, ref) VALUES (?, ?)').run(kind, ref);
}

/** An edge this user may no longer see (one of its ends left their scopes). */
export function evictEdge(db: Db, id: string): boolean {
  stmt(db, "DELETE FROM sync_versions WHERE kind = 'edge' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_outbox WHERE kind = 'edge' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_changes WHERE kind = 'edge' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_received WHERE kind = 'edge' AND ref = ?").run(id);
  return stmt(db, 'DELETE FROM edges WHERE id = ?').run(id).changes > 0;
}

/** An item this user may no longer see leaves the replica: the row, its index entries, its edges. */
export function evictItem(db: Db, id: string): boolean {
  const row = getRow(db, id);
  stmt(db, "DELETE FROM sync_versions WHERE kind = 'item' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_outbox WHERE kind = 'item' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_changes WHERE kind = 'item' AND ref = ?").run(id);
  stmt(db, "DELETE FROM sync_received WHERE kind = 'item' AND ref = ?").run(id);
  const edges = stmt(db, 'SELECT id FROM edges WHERE from_id = ? OR to_id = ?').all(id, id) as {
    id: string;
  }[];
  for (const e of edges) evictEdge(db, e.id);
  if (agentRecordKindOf(id)) return evictAgentRecord(db, id);
  if (!row) return evictTreeRecord(db, id);
  if (isSearchable(row)) ftsDelete(db, row);
  vecDelete(db, row.rowid);
  stmt(db, "UPDATE jobs SET state = 'done', error = 'evicted' WHERE item_id = ? AND state = 'queued'").run(
    id,
  );
  stmt(db, 'DELETE FROM items WHERE id = ?').run(id);
  return true;
}
