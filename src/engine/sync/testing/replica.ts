/** Bare replicas (a database and a blob store, no engine) for sync unit and fuzz tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, createBlobStore } from '#engine/add/blobs.ts';
import { type Db, openDb, stmt, writeTx } from '#engine/db/driver.ts';
import { edgeId } from '#engine/ids.ts';
import { upsertNote } from '#engine/knowledge/notes.ts';
import { ftsDelete, ftsInsert, getRow, type ItemRow, isSearchable, vecDelete } from '#engine/read/items.ts';
import type { SyncDeps } from '../client.ts';

export type TestReplica = SyncDeps & {
  name: string;
  user: string;
  note(key: string, body: string, scope?: string): string;
  retire(id: string): void;
  link(from: string, to: string, type: string, note: string): string;
  close(): void;
};

const WORKSPACE = 'ws-shared';

export function createReplica(
  name: string,
  user = name,
  options: { connected?: boolean; workspaceId?: string } = {},
): TestReplica {
  const workspace = options.workspaceId ?? WORKSPACE;
  const dir = mkdtempSync(join(tmpdir(), `brain-sync-${name}-`));
  const db: Db = openDb(join(dir, 'brain.db'));
  const blobs: BlobStore = createBlobStore(join(dir, 'blobs'));
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('workspace_id', ?)").run(workspace);
  db.prepare('INSERT OR IGNORE INTO users (id, name, created_at) VALUES (?, ?, ?)').run(user, user, 'now');
  if (options.connected !== false) {
    db.prepare("UPDATE sync_state SET server = 'http://fake', user_id = ? WHERE id = 1").run(user);
  }
  return {
    name,
    user,
    db,
    blobs,
    workspaceId: workspace,
    localModel: null,
    note(key, body, scope = 'org') {
      return upsertNote(db, workspace, {
        kind: 'fact',
        label: `note ${key}`,
        body,
        scope,
        sourceKey: `note:${key}`,
        actor: user,
        source: 'test',
      }).id;
    },
    retire(id) {
      writeTx(db, () => {
        const row = getRow(db, id);
        if (!row || row.retired_at !== null) return;
        if (isSearchable(row)) ftsDelete(db, row);
        vecDelete(db, row.rowid);
        stmt(db, 'UPDATE items SET retired_at = ?, updated_at = ? WHERE id = ?').run(
          '2026-01-01T00:00:00Z',
          'x',
          id,
        );
      });
    },
    link(from, to, type, note) {
      const id = edgeId(from, type, to);
      db.prepare(
        `INSERT INTO edges (id, type, from_id, to_id, props, origin_actor, origin_source, origin_at)
         VALUES (?, ?, ?, ?, ?, ?, 'test', 'now')
         ON CONFLICT (id) DO UPDATE SET props = excluded.props, origin_actor = excluded.origin_actor`,
      ).run(id, type, from, to, JSON.stringify({ note }), user);
      return id;
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const ITEM_DUMP = `id, storage_kind, kind, label, summary, body, source_key, canonical_type, canonical_value, blob, format,
  size, file_id, ordinal, locator, indexed, health, scope, origin_actor, origin_source, origin_run, origin_at, occurred_at,
  retired_at, superseded_by, created_at, updated_at, version`;

/** The synced state of a replica, visible to `scopes`, as a comparable value. */
export function dumpReplica(db: Db, scopes?: readonly string[]): { items: unknown[]; edges: unknown[] } {
  const items = (
    db.prepare(`SELECT ${ITEM_DUMP} FROM items ORDER BY id`).all() as { id: string; scope: string }[]
  ).filter((r) => !scopes || scopes.includes(r.scope));
  const visible = new Set(items.map((r) => r.id));
  const edges = (
    db
      .prepare(
        'SELECT id, type, from_id, to_id, props, origin_actor, origin_source, origin_run, origin_at, retired_at FROM edges ORDER BY id',
      )
      .all() as { from_id: string; to_id: string }[]
  ).filter((e) => !scopes || (visible.has(e.from_id) && visible.has(e.to_id)));
  return { items, edges };
}

/** Search index in step with the rows: exactly the searchable items have FTS entries, each findable. */
export function checkIndexes(db: Db): string[] {
  const problems: string[] = [];
  const rows = db.prepare('SELECT rowid, id, indexed, retired_at, body FROM items').all() as {
    rowid: number;
    id: string;
    indexed: number;
    retired_at: string | null;
    body: string;
  }[];
  const searchable = rows.filter((r) => isSearchable(r));
  const indexed = (db.prepare('SELECT COUNT(*) AS n FROM items_fts_docsize').get() as { n: number }).n;
  if (indexed !== searchable.length)
    problems.push(`fts has ${indexed} rows, ${searchable.length} searchable items`);
  for (const r of rows) {
    const word = r.body.match(/[a-z]+\d+/)?.[0];
    if (!word) continue;
    const hits = (
      db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ?').all(`"${word}"`) as {
        rowid: number;
      }[]
    ).map((h) => h.rowid);
    if (hits.includes(r.rowid) !== isSearchable(r)) problems.push(`${r.id} fts=${hits.includes(r.rowid)}`);
  }
  return problems;
}

/**
 * A new body for an item this replica holds (anyone's: its origin is kept), written the way the
 * engine's own writers write one (src/engine/knowledge/graph.ts edits an entity's body so): in one
 * transaction, the full-text row taken out before and put back after, so the index stays in step
 * (`checkIndexes`) and the outbox triggers record the change. False when the item is not here.
 */
export function editBody(db: Db, id: string, body: string): boolean {
  return writeTx(db, () => {
    const row = getRow(db, id);
    if (!row) return false;
    if (isSearchable(row)) ftsDelete(db, row);
    stmt(db, 'UPDATE items SET body = ?, updated_at = ?, version = version + 1 WHERE id = ?').run(
      body,
      new Date().toISOString(),
      id,
    );
    const next = getRow(db, id) as ItemRow;
    if (isSearchable(next)) ftsInsert(db, next);
    return true;
  });
}

/** The live notes this replica holds, with what a fuzz picks them by. */
export function heldNotes(db: Db): { id: string; scope: string; origin_actor: string }[] {
  return stmt(
    db,
    "SELECT id, scope, origin_actor FROM items WHERE storage_kind = 'note' AND retired_at IS NULL ORDER BY id",
  ).all() as { id: string; scope: string; origin_actor: string }[];
}
