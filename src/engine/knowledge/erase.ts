/**
 * Erasing a source (docs/FACTS.md [K14]): unlike removing ([K8]), which retires, nothing is kept.
 * The file or note goes with everything derived from it: its earlier versions ([K16]: retired
 * items of its kind keyed `<its source key>@v<n>`, superseded by it), the sections of all of
 * these, every edge from or to any of them (claims, mentions, links, HAS_SECTION, SUPERSEDES),
 * their full-text rows and vectors, jobs, audit and compile passes, review cards, the chat answers
 * that cited them, the Activity entries that name them, this replica's sync bookkeeping of them,
 * and the bytes no other item references. Entities stay: a face is a name every source mentioning
 * it shares, so the ones only this source supported are left with no current fact and named.
 *
 * Only the local admin erases ([R3] in docs/RETRIEVAL.md). Connected, the erase is sent to the
 * server as `item.erase` (docs/SYNC_SPEC.md [S35]), which decides; a pulled erase runs the same
 * deletion here ([C16]). The full-text index is merged into one segment (no word of it is left in
 * an older one), deleted pages are overwritten (SQLite secure_delete) and the journal is
 * checkpointed afterwards, so the text does not linger in the database file; the vector mirror's
 * files beside it ([R9] in docs/RETRIEVAL.md) are deleted.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { AppError } from '#shared/errors.ts';
import { OpSchema } from '#shared/sync/protocol.ts';
import { assertMayActAs } from '../acting-as.ts';
import type { BlobStore } from '../add/blobs.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { ftsDelete, getRow, type ItemRow, isSearchable, vecDelete } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';
import { removeMirrorFiles } from '../search/mirror-file.ts';
import { ReplicaClock } from '../sync/clock.ts';
import { connectedUser, readState } from '../sync/state.ts';
import { assertRemovableSource, factsBefore, factsLost } from './remove.ts';

/** What erasing a source takes with it. */
export type ErasePlan = { source: ItemRow; versions: ItemRow[]; sections: ItemRow[]; edges: string[] };

export type EraseResult = {
  id: string;
  label: string;
  storageKind: 'file' | 'note';
  versions: number;
  sections: number;
  links: number;
  /** Stored files deleted (bytes no other item references). */
  blobs: number;
  /** Facts that were current and are not any more. */
  retiredFacts: number;
  /** Entities left with no current fact. */
  emptied: { id: string; label: string }[];
  /** Sent to the workspace server, which erases it on every replica ([S35]). */
  sent: boolean;
};

/** The text a chat answer keeps once a source it cited is erased. */
export const ERASED_ANSWER = 'This answer drew on a source that was erased; it is no longer kept.';

function refused(message: string): AppError {
  return new AppError('forbidden', `Erasing is for the local admin only: ${message}.`);
}

/**
 * Refuses with `forbidden` unless `user` is the local admin, as acting as another member decides
 * it ([R3]; src/engine/access/local-admin.ts does the same for access checks): connected, the
 * replica's own member when the server made them an admin; not connected, the workspace's first
 * local user, on the account that owns the folder. Nothing is looked up before.
 */
export function assertMayErase(db: Db, home: string, user: string): void {
  const connected = connectedUser(db);
  if (connected && user !== connected) throw refused(`${user} is acted as (--as); erase as ${connected}`);
  try {
    assertMayActAs(db, home, user, user);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'forbidden') throw err;
    throw refused(/local admin only: ([\s\S]*?)\.?$/.exec(err.message)?.[1] ?? err.message);
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/**
 * The parts of a source: its earlier versions, the sections of it and of them, every edge of
 * these. Without the source's row (a replica holding only parts of it), its versions are the
 * files and notes it supersedes that are keyed as versions.
 */
function partsOf(db: Db, id: string, source: ItemRow | undefined): Omit<ErasePlan, 'source'> {
  const versions = (
    source
      ? stmt(
          db,
          `SELECT * FROM items WHERE superseded_by = ? AND storage_kind = ? AND source_key LIKE ? ESCAPE '\\'`,
        ).all(id, source.storage_kind, `${escapeLike(source.source_key)}@v%`)
      : stmt(
          db,
          `SELECT * FROM items WHERE superseded_by = ? AND storage_kind IN ('file', 'note') AND source_key LIKE '%@v%'`,
        ).all(id)
  ) as ItemRow[];
  const heads = [id, ...versions.map((v) => v.id)];
  const sections = stmt(
    db,
    `SELECT * FROM items WHERE storage_kind = 'section' AND file_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(heads)) as ItemRow[];
  const ids = JSON.stringify([...heads, ...sections.map((s) => s.id)]);
  const edges = (
    stmt(
      db,
      `SELECT id FROM edges WHERE from_id IN (SELECT value FROM json_each(?))
       OR to_id IN (SELECT value FROM json_each(?))`,
    ).all(ids, ids) as { id: string }[]
  ).map((e) => e.id);
  return { versions, sections, edges };
}

/** What erasing `id` would take, after the refusals of [K14]; changes nothing. */
export function planErase(db: Db, scopes: readonly string[], id: string): ErasePlan {
  const row = visibleRow(db, id, scopes);
  assertRemovableSource(row, 'erase');
  return { source: row, ...partsOf(db, id, row) };
}

/** Queues the erase for the server, in the erase's transaction (its own op: [S35]). */
function queueErase(db: Db, source: ItemRow): boolean {
  if (!readState(db).server) return false;
  const op = OpSchema.parse({
    id: randomUUID(),
    kind: 'item.erase',
    hlc: new ReplicaClock(db).stamp(),
    scope: source.scope,
    itemId: source.id,
  });
  stmt(db, 'INSERT INTO sync_outbox (op_id, kind, ref, hlc, body) VALUES (?, ?, ?, ?, ?)').run(
    op.id,
    'erase',
    source.id,
    op.hlc,
    JSON.stringify(op),
  );
  return true;
}

/** Erases `id` as the local admin: everything of it here, and (connected) on the server. */
export function eraseSource(
  deps: { db: Db; blobs: BlobStore; home: string; user: string; scopes: readonly string[] },
  id: string,
): EraseResult {
  const { db, scopes } = deps;
  assertMayErase(db, deps.home, deps.user);
  const outcome = secureWrite(db, () => {
    const plan = planErase(db, scopes, id);
    const { source } = plan;
    const all = [source, ...plan.versions, ...plan.sections];
    const before = factsBefore(
      db,
      scopes,
      all.map((r) => r.id),
    );
    const sent = queueErase(db, source);
    const blobs = deleteParts(db, all, plan.edges);
    purgeFullText(db);
    const result: EraseResult = {
      id,
      label: source.label,
      storageKind: source.storage_kind === 'note' ? 'note' : 'file',
      versions: plan.versions.length,
      sections: plan.sections.length,
      links: plan.edges.length,
      blobs: blobs.length,
      ...factsLost(db, scopes, before),
      sent,
    };
    return { result, blobs };
  });
  removeBlobFiles(deps.blobs, outcome.blobs);
  return outcome.result;
}

/**
 * A pulled erase ([C16]): the source and its parts leave this replica, whether it holds the source
 * or only parts of it. Runs in the caller's transaction (the page's); answers whether anything was
 * here, and the bytes to delete once that transaction has committed.
 */
export function erasePulled(db: Db, id: string): { erased: boolean; blobs: string[] } {
  const source = getRow(db, id);
  const parts = partsOf(db, id, source);
  const all = [...(source ? [source] : []), ...parts.versions, ...parts.sections];
  if (all.length === 0 && parts.edges.length === 0) return { erased: false, blobs: [] };
  return { erased: true, blobs: deleteParts(db, all, parts.edges) };
}

/** Runs `fn` in a write transaction whose deletions overwrite the freed pages, then checkpoints. */
export function secureWrite<T>(db: Db, fn: () => T): T {
  const before = db.pragma('secure_delete', { simple: true });
  db.pragma('secure_delete = ON');
  try {
    return writeTx(db, fn);
  } finally {
    db.pragma(`secure_delete = ${Number(before) === 1 ? 'ON' : 'OFF'}`);
    removeMirrorFiles(db);
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // another process holds the database: its next checkpoint writes the overwritten pages
    }
  }
}

/**
 * Deletes the rows and every trace of them; answers the blobs they held that nothing left here
 * references (the caller deletes the files after its transaction commits).
 */
/** What a file or note holds, as an erase remembers it: its bytes' hash, else its body's. */
function contentOf(row: Pick<ItemRow, 'blob' | 'body'>): string {
  return row.blob ?? createHash('sha256').update(row.body).digest('hex');
}

/** True when `id` was erased here holding exactly `content` ([K14]). */
export function erasedWith(db: Db, id: string, content: string): boolean {
  return stmt(db, 'SELECT 1 FROM erased_content WHERE id = ? AND content = ?').get(id, content) !== undefined;
}

function deleteParts(db: Db, rows: readonly ItemRow[], edges: readonly string[]): string[] {
  for (const row of rows) {
    if (isSearchable(row)) ftsDelete(db, row);
    vecDelete(db, row.rowid);
  }
  const ids = [...rows.map((r) => r.id), ...edges];
  const json = JSON.stringify(ids);
  // The same content is not added back under an erased id (migration 0022).
  const keep = stmt(db, 'INSERT OR REPLACE INTO erased_content (id, content, erased_at) VALUES (?, ?, ?)');
  const at = new Date().toISOString();
  for (const r of rows) {
    if (r.storage_kind === 'file' || r.storage_kind === 'note') keep.run(r.id, contentOf(r), at);
  }
  stmt(db, 'DELETE FROM edges WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(edges));
  stmt(db, 'DELETE FROM items WHERE id IN (SELECT value FROM json_each(?))').run(
    JSON.stringify(rows.map((r) => r.id)),
  );
  scrubTraces(db, json);
  const hashes = [...new Set(rows.flatMap((r) => (r.blob ? [r.blob] : [])))];
  const gone = hashes.filter((h) => !blobReferenced(db, h));
  for (const h of gone) stmt(db, 'DELETE FROM sync_blobs_wanted WHERE hash = ?').run(h);
  return gone;
}

/**
 * FTS5 deletes by adding delete markers: the words stay in older index segments until those are
 * merged. Merging every segment into one drops them for good; on a workspace of 50,000 sections
 * that takes about a second, which an erase (rare, and an admin's) can afford. Call once after
 * the deletions of a transaction.
 */
export function purgeFullText(db: Db): void {
  stmt(db, "INSERT INTO items_fts (items_fts) VALUES ('optimize')").run();
}

/** Rows of tables other parts of the engine keep that name an erased id (`ids`: a JSON array). */
function scrubTraces(db: Db, ids: string): void {
  const inIds = 'IN (SELECT value FROM json_each(?))';
  stmt(db, `DELETE FROM jobs WHERE item_id ${inIds}`).run(ids);
  stmt(db, `DELETE FROM audit_passes WHERE file_id ${inIds}`).run(ids);
  // The compile pass's record (migration 0016) and the review cards held for it (0015).
  for (const [table, column] of [
    ['compile_passes', 'source_id'],
    ['compile_claims', 'source_id'],
    ['review_cards', 'source_id'],
  ] as const) {
    if (hasColumn(db, table, column)) db.prepare(`DELETE FROM ${table} WHERE ${column} ${inIds}`).run(ids);
  }
  for (const kind of ['item', 'edge']) {
    for (const table of ['sync_versions', 'sync_changes', 'sync_received'])
      stmt(db, `DELETE FROM ${table} WHERE kind = ? AND ref ${inIds}`).run(kind, ids);
    stmt(db, `DELETE FROM sync_outbox WHERE kind = ? AND ref ${inIds}`).run(kind, ids);
  }
  const mentions = (column: string) =>
    `EXISTS (SELECT 1 FROM json_each(?) j WHERE instr(${column}, j.value) > 0)`;
  stmt(db, `DELETE FROM sync_set_aside WHERE ${mentions('body')}`).run(ids);
  // Activity entries that name it go whole: a search that found it goes with its query ([K14]).
  stmt(db, `DELETE FROM telemetry WHERE ${mentions('data')}`).run(ids);
  // A chat answer that cited it was made of its text: the answer is replaced, the question stays.
  stmt(
    db,
    `UPDATE chat_turns SET text = ?,
       data = json_object('memories', json_array(), 'passages', json_array(), 'reason', ?,
         'modelOff', CASE WHEN json_extract(data, '$.modelOff') THEN json('true') ELSE json('false') END)
     WHERE role = 'assistant' AND ${mentions('data')}`,
  ).run(ERASED_ANSWER, 'a source it cited was erased', ids);
}

function hasColumn(db: Db, table: string, column: string): boolean {
  return Boolean(stmt(db, 'SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get(table, column) as unknown);
}

/** Bytes still needed here: by an item, or by a connected repository's documents. */
function blobReferenced(db: Db, hash: string): boolean {
  if (stmt(db, 'SELECT 1 FROM items WHERE blob = ? LIMIT 1').get(hash)) return true;
  for (const table of ['tree_docs', 'tree_nodes', 'tree_grep_docs']) {
    if (hasColumn(db, table, 'blob') && db.prepare(`SELECT 1 FROM ${table} WHERE blob = ? LIMIT 1`).get(hash))
      return true;
  }
  return false;
}

/** Deletes the stored files of erased bytes (after the transaction that erased them committed). */
export function removeBlobFiles(blobs: BlobStore, hashes: readonly string[]): void {
  for (const hash of hashes) rmSync(blobs.path(hash), { force: true });
}
