/**
 * Moving a file (with its sections) or a note to another scope: the one way an item's scope
 * changes, because it shows the item to other people and hides it from some. The rules are the
 * workspace server's (docs/SYNC_SPEC.md [S24]), checked here first so a replica never records a
 * move the server would refuse: the mover sees the item, is its author or a workspace admin, may
 * write in the new scope, and the author can see the new scope (an item its author cannot see is
 * nobody's to keep up).
 */
import { AppError } from '#shared/errors.ts';
import { originUser } from '#shared/ids.ts';
import type { StorageKind } from '#shared/types.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { healthInScope } from '../knowledge/health.ts';
import { earlierVersions } from '../knowledge/versions.ts';
import { type ItemRow, vecUpsert } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';
import { canSee, parseScope, visibleScopes } from '../scope.ts';
import { isAdmin } from '../writeback/inbox.ts';

export type MovePlan = {
  id: string;
  label: string;
  storageKind: Extract<StorageKind, 'file' | 'note'>;
  from: string;
  to: string;
  /** The file's live sections (they move with it, as do the retired ones). */
  sections: number;
  author: string;
};

export type MoveResult = MovePlan & {
  /** False when the item was already in that scope: nothing was written. */
  moved: boolean;
  /** Rows whose scope changed: the item and every section of a file. */
  items: number;
  /** Of them, the ones whose vector was re-filed under the new scope. */
  vectors: number;
};

/** Checks every rule and says what a move would do, writing nothing (for a confirmation). */
export function planMove(db: Db, actor: string, id: string, scopeInput: string): MovePlan {
  const to = parseScope(scopeInput);
  const row = visibleRow(db, id, visibleScopes(db, actor));
  const storageKind = movableKind(row);
  const author = originUser(row.origin_actor);
  if (!author) {
    throw new AppError('forbidden', `${row.label} names no member as its author, so it cannot be moved.`);
  }
  if (author !== actor && !isAdmin(db, actor)) {
    throw new AppError(
      'forbidden',
      `${actor} cannot move ${row.label}: only its author (${author}) or a workspace admin can.`,
    );
  }
  if (!canSee(visibleScopes(db, actor), to)) {
    throw new AppError('forbidden', `${actor} cannot move ${row.label} to ${to}: not a member of it.`);
  }
  if (!canSee(visibleScopes(db, author), to)) {
    throw new AppError(
      'forbidden',
      `Cannot move ${row.label} to ${to}: its author (${author}) cannot see ${to}.`,
    );
  }
  return {
    id: row.id,
    label: row.label,
    storageKind,
    from: row.scope,
    to,
    sections: liveSections(db, row),
    author,
  };
}

function movableKind(row: ItemRow): MovePlan['storageKind'] {
  if (row.storage_kind === 'file' || row.storage_kind === 'note') {
    if (row.retired_at !== null) throw new AppError('refused', `${row.label} was removed: nothing to move.`);
    return row.storage_kind;
  }
  const what =
    row.storage_kind === 'section'
      ? `${row.id} is a section: move its file (${row.file_id}) and its sections move with it.`
      : `${row.id} is an entity: entities are not moved.`;
  throw new AppError('unsupported', what);
}

function liveSections(db: Db, row: ItemRow): number {
  if (row.storage_kind !== 'file') return 0;
  const n = stmt(
    db,
    "SELECT COUNT(*) AS n FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL",
  ).get(row.id) as { n: number };
  return n.n;
}

/**
 * Moves the item and, for a file, all its sections (retired ones too: their text is the file's)
 * and its earlier versions
 * in one write transaction, so the outbox triggers record every row for sync. Rowids do not
 * change, so full-text rows stay as they are; vectors are partitioned by scope and are re-filed.
 */
export function moveItem(db: Db, actor: string, id: string, scope: string): MoveResult {
  return writeTx(db, () => {
    const plan = planMove(db, actor, id, scope);
    if (plan.from === plan.to) return { ...plan, moved: false, items: 0, vectors: 0 };
    const found = stmt(
      db,
      "SELECT * FROM items WHERE id = ? OR (file_id = ? AND storage_kind = 'section') ORDER BY rowid",
    ).all(plan.id, plan.id) as ItemRow[];
    // Its earlier versions hold its old text: they go where it goes (docs/FACTS.md [K16]).
    const source = found.find((r) => r.id === plan.id);
    const rows = source ? [...found, ...earlierVersions(db, source)] : found;
    const now = new Date().toISOString();
    let vectors = 0;
    for (const row of rows) {
      moveRow(db, row, plan.to, now);
      if (row.embedded_model && refileVector(db, row, plan.to)) vectors++;
    }
    return { ...plan, moved: true, items: rows.length, vectors };
  });
}

function moveRow(db: Db, row: ItemRow, to: string, now: string): void {
  // A same-bytes note must name only a file everyone in the new scope can see (src/engine/knowledge/health.ts).
  const notes = row.storage_kind === 'file' ? healthInScope(db, { ...row, scope: to }) : null;
  const health = notes && (notes.length > 0 || row.health !== null) ? JSON.stringify(notes) : row.health;
  stmt(
    db,
    'UPDATE items SET scope = ?, health = ?, updated_at = ?, version = version + 1 WHERE rowid = ?',
  ).run(to, health, now, row.rowid);
}

/** The same vector, filed under the new scope (as src/engine/sync/rekey.ts re-files one). */
function refileVector(db: Db, row: ItemRow, scope: string): boolean {
  const hit = stmt(db, 'SELECT embedding FROM vec_items WHERE item_rowid = ?').get(BigInt(row.rowid)) as
    | { embedding: Buffer }
    | undefined;
  if (!hit || !row.embedded_model) return false;
  const vector = new Float32Array(new Uint8Array(hit.embedding).buffer);
  vecUpsert(db, { rowid: row.rowid, storage_kind: row.storage_kind, scope }, row.embedded_model, vector);
  return true;
}
