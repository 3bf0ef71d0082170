/**
 * Notes: facts written straight in (by a person or an agent). The source key anchors identity:
 * the same key with new text is the note's next version (the text it had is kept as its earlier
 * version, docs/FACTS.md [K16]), the same text does nothing, and a different key is a new note even
 * if it reads the same.
 */
import { AppError } from '#shared/errors.ts';
import { originUser } from '#shared/ids.ts';
import type { Db } from '../db/driver.ts';
import { writeTx } from '../db/driver.ts';
import { ownedItemId } from '../ids.ts';
import {
  ftsDelete,
  ftsInsert,
  getRow,
  type ItemRow,
  isSearchable,
  vecDelete,
  vecUpsert,
} from '../read/items.ts';
import { archiveVersion } from './versions.ts';

export type NoteInput = {
  kind: string;
  label: string;
  body: string;
  scope: string;
  sourceKey?: string;
  actor: string;
  source: string;
  run?: string | null;
  occurredAt?: string | null;
};

export type NoteVector = { model: string; vector: Float32Array } | null;

/** The same key with the same content (and a live note) does nothing ([K16]). */
function unchanged(prev: ItemRow, input: NoteInput, label: string, body: string): boolean {
  return (
    prev.retired_at === null &&
    prev.storage_kind === 'note' &&
    prev.label === label &&
    prev.body === body &&
    prev.kind === input.kind &&
    prev.scope === input.scope
  );
}

export function upsertNote(
  db: Db,
  workspaceId: string,
  input: NoteInput,
  vector: NoteVector = null,
): ItemRow {
  const label = input.label.trim();
  const body = input.body.trim();
  if (!label || !body) throw new AppError('validation-failed', 'A note needs a label and a body.');
  const sourceKey = input.sourceKey?.trim() || `note:${input.actor}:${label}:${Date.now()}`;
  // A note is its writer's: the id is made in the namespace of the member its origin names.
  const owner = originUser(input.actor);
  if (!owner) throw new AppError('validation-failed', `The origin "${input.actor}" names no member.`);
  const id = ownedItemId(workspaceId, 'note', owner, sourceKey);
  const now = new Date().toISOString();
  return writeTx(db, () => {
    const prev = getRow(db, id);
    if (prev && unchanged(prev, input, label, body)) return prev;
    if (prev) {
      // [K16] Rewriting a note keeps what it said as its earlier version, pointing to it.
      if (prev.body !== body || prev.label !== label) archiveVersion(db, workspaceId, owner, prev, now);
      if (isSearchable(prev)) ftsDelete(db, prev);
      vecDelete(db, prev.rowid);
      db.prepare(
        `UPDATE items SET kind = ?, label = ?, body = ?, scope = ?, origin_actor = ?, origin_source = ?, origin_run = ?,
         origin_at = ?, occurred_at = ?, retired_at = NULL, embedded_model = NULL, updated_at = ?, version = version + 1
         WHERE id = ?`,
      ).run(
        input.kind,
        label,
        body,
        input.scope,
        input.actor,
        input.source,
        input.run ?? null,
        now,
        input.occurredAt ?? now,
        now,
        id,
      );
    } else {
      db.prepare(
        `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, indexed, scope,
         origin_actor, origin_source, origin_run, origin_at, occurred_at, created_at, updated_at)
         VALUES (?, ?, 'note', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        workspaceId,
        input.kind,
        label,
        body,
        sourceKey,
        input.scope,
        input.actor,
        input.source,
        input.run ?? null,
        now,
        input.occurredAt ?? now,
        now,
        now,
      );
    }
    const row = getRow(db, id) as ItemRow;
    ftsInsert(db, row);
    if (vector) vecUpsert(db, row, vector.model, vector.vector);
    return getRow(db, id) as ItemRow;
  });
}
