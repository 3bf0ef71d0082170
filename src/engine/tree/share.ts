/**
 * Trees between replicas (docs/TREES.md [T13]). The tree is a function of its documents' bytes and
 * their commit metadata, so what travels is what that function reads:
 * - each document as the file item it already is (source key `tree:<tree id>:<path>`, in its
 *   creator's namespace), its repository origin in the item's locator (`{type: 'repo', tree,
 *   path, commit, changed}`: the commit that holds these bytes, and the document's last change);
 * - one record per repository, an operation of storage kind `tree` in its creator's namespace:
 *   its name, branch, indexed commit, the Markdown files it holds but could not index (over the
 *   size cap: a link to one is not broken) and a fingerprint of its documents.
 * A replica that receives a record builds the tree from the creator's documents once it holds
 * exactly the documents the fingerprint names (and their bytes); until then the tree is `queued`.
 * Nothing here trusts the record: its id must be the one its creator's namespace gives its key,
 * and only documents whose ids that same namespace gives are read, so no member can put a
 * document into someone else's tree or a tree under someone else's name.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { originUser } from '#shared/ids.ts';
import type { SyncItem } from '#shared/sync/protocol.ts';
import { type Db, stmt } from '../db/driver.ts';
import { ownedItemId } from '../ids.ts';
import type { Change } from './types.ts';

/** Where a tree document's file item came from: its repository, path, a commit holding its bytes, its last change. */
export type RepoOrigin = {
  type: 'repo';
  tree: string;
  path: string;
  commit: string | null;
  changed: Change | null;
};

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const isTextOrNull = (v: unknown, max: number) => v === null || isText(v, max);

function isChange(v: unknown): v is Change {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return isText(c.commit, 200) && isText(c.date, 40) && isText(c.subject, 1000);
}

/**
 * The repository origin of a file item's locator, or null (another kind of locator, or none).
 * Checked by hand, not with a schema: a build reads every document's origin.
 */
export function repoOriginOf(locator: string | null): RepoOrigin | null {
  if (!locator?.startsWith('{"type":"repo"')) return null;
  try {
    const o = JSON.parse(locator) as Record<string, unknown>;
    if (!isText(o.tree, 100) || !isText(o.path, 4000) || !isTextOrNull(o.commit, 200)) return null;
    if (o.changed !== null && !isChange(o.changed)) return null;
    return {
      type: 'repo',
      tree: o.tree,
      path: o.path,
      commit: (o.commit as string | null) ?? null,
      changed: (o.changed as Change | null) ?? null,
    };
  } catch {
    return null;
  }
}

/** The locator text of a document's origin, keys in one order (it is compared as text). */
export function repoOriginText(origin: RepoOrigin): string {
  const changed = origin.changed
    ? {
        commit: origin.changed.commit,
        date: origin.changed.date,
        subject: origin.changed.subject.slice(0, 1000),
      }
    : null;
  return JSON.stringify({
    type: 'repo',
    tree: origin.tree,
    path: origin.path,
    commit: origin.commit,
    changed,
  });
}

/** The record of a connected repository, as it travels in the body of its `tree` operation. */
export const TreeRecordSchema = z
  .object({
    v: z.literal(1),
    tree: z.string().regex(/^tree_[0-9a-f]{16}$/),
    branch: z.string().max(500).nullable(),
    git: z.boolean(),
    commit: z.string().max(200).nullable(),
    documents: z.number().int().nonnegative(),
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
    others: z.array(z.string().max(4000)).max(5000),
  })
  .strict();
export type TreeRecord = z.infer<typeof TreeRecordSchema>;

/** The id a repository's record syncs under: made like a file's, in its creator's namespace. */
export function recordItemId(workspaceId: string, creator: string, tree: string): string {
  return ownedItemId(workspaceId, 'tree', creator, `tree:${tree}`);
}

/**
 * The id a creator's document item has (a hash; a build looks at every document's, so the answers
 * are kept, at most 100,000 of them).
 */
const docIds = new Map<string, string>();
function docIdOf(workspaceId: string, creator: string, sourceKey: string): string {
  const key = `${workspaceId}\0${creator}\0${sourceKey}`;
  let id = docIds.get(key);
  if (id === undefined) {
    if (docIds.size >= 100_000) docIds.clear();
    id = ownedItemId(workspaceId, 'file', creator, sourceKey);
    docIds.set(key, id);
  }
  return id;
}

/** A document of a tree as its creator's file item on this replica. */
export type SharedDoc = { id: string; path: string; blob: string; size: number; changed: Change | null };

/**
 * The live documents of a tree here: file items under its key prefix whose ids the creator's
 * namespace gives (a look-alike key in anyone else's namespace is not one of them).
 */
export function sharedDocs(
  db: Db,
  workspaceId: string,
  creator: string,
  tree: string,
  only?: (path: string) => boolean,
): SharedDoc[] {
  const prefix = `tree:${tree}:`;
  const rows = stmt(
    db,
    `SELECT id, source_key, blob, size, locator FROM items
     WHERE storage_kind = 'file' AND source_key LIKE 'tree:%' AND source_key >= ? AND source_key < ?
       AND retired_at IS NULL AND blob IS NOT NULL`,
  ).all(prefix, `tree:${tree};`) as {
    id: string;
    source_key: string;
    blob: string;
    size: number | null;
    locator: string | null;
  }[];
  const out: SharedDoc[] = [];
  for (const r of rows) {
    if (only && !only(r.source_key.slice(prefix.length))) continue;
    if (docIdOf(workspaceId, creator, r.source_key) !== r.id) continue;
    out.push(sharedDocOf(r, prefix));
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

type SharedRow = {
  id: string;
  source_key: string;
  blob: string;
  size: number | null;
  locator: string | null;
};

function sharedDocOf(r: SharedRow, prefix: string): SharedDoc {
  return {
    id: r.id,
    path: r.source_key.slice(prefix.length),
    blob: r.blob,
    size: r.size ?? 0,
    changed: repoOriginOf(r.locator)?.changed ?? null,
  };
}

/**
 * The live documents of a tree at some paths, as `sharedDocs` lists them (for a build that knows
 * the others have not changed since it last listed them): each looked up by the id its creator's
 * namespace gives its key.
 */
export function sharedDocsAt(
  db: Db,
  workspaceId: string,
  creator: string,
  tree: string,
  paths: Iterable<string>,
): SharedDoc[] {
  const prefix = `tree:${tree}:`;
  const row = stmt(
    db,
    `SELECT id, source_key, blob, size, locator FROM items
     WHERE id = ? AND storage_kind = 'file' AND source_key = ? AND retired_at IS NULL AND blob IS NOT NULL`,
  );
  const out: SharedDoc[] = [];
  for (const path of paths) {
    const key = `${prefix}${path}`;
    const r = row.get(docIdOf(workspaceId, creator, key), key) as SharedRow | undefined;
    if (r) out.push(sharedDocOf(r, prefix));
  }
  return out;
}

/** What names a tree's documents exactly: each one's path, bytes and last change. */
export function fingerprintOf(docs: readonly SharedDoc[]): string {
  const h = createHash('sha256');
  // Hashed in large pieces (the same digest as line by line), each document's line made once.
  let piece = '';
  for (const d of [...docs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    let line = fingerprintLines.get(d);
    if (line === undefined) {
      line = `${d.path}\0${d.blob}\0${d.changed ? JSON.stringify(d.changed) : ''}\n`;
      fingerprintLines.set(d, line);
    }
    piece += line;
    if (piece.length >= 1 << 16) {
      h.update(piece);
      piece = '';
    }
  }
  h.update(piece);
  return h.digest('hex');
}

/** A shared document's line of the fingerprint (a build hashes the same documents again and again). */
const fingerprintLines = new WeakMap<SharedDoc, string>();

/** The record row of a tree (local or received), as `tree_sources` holds it. */
export type RecordRow = {
  id: string;
  item_id: string | null;
  root: string;
  scope: string;
  record: string | null;
  retired_at: string | null;
  created_by: string;
  created_at: string;
  built_at: string | null;
  updated_at: string | null;
  version: number;
};

/** A local tree's record as the operation sends it (null before its first build made one). */
export function syncRecordOf(row: RecordRow, name: string): Omit<SyncItem, 'vector'> | null {
  if (!row.item_id || !row.record) return null;
  const at = row.updated_at ?? row.built_at ?? row.created_at;
  return {
    id: row.item_id,
    storage_kind: 'tree',
    kind: 'tree',
    label: name.slice(0, 2000),
    summary: null,
    body: row.record,
    source_key: `tree:${row.id}`,
    canonical_type: null,
    canonical_value: null,
    blob: null,
    format: null,
    size: null,
    file_id: null,
    ordinal: null,
    locator: null,
    indexed: row.built_at ? 1 : 0,
    health: null,
    scope: row.scope,
    origin_actor: row.created_by,
    origin_source: 'tree',
    origin_run: null,
    origin_at: row.created_at,
    occurred_at: row.built_at,
    retired_at: row.retired_at,
    superseded_by: null,
    created_at: row.created_at,
    updated_at: at,
    version: row.version,
  };
}

/**
 * A pulled record: kept as a tree to build here when it is what it says (its id is its creator's
 * for its key, its body a record); a retired one, or one of a tree connected on this replica (its
 * own record coming back), changes nothing but the received tree. Returns whether it changed.
 */
export function applyTreeRecord(db: Db, workspaceId: string, item: SyncItem): boolean {
  const creator = originUser(item.origin_actor);
  let record: TreeRecord | null = null;
  try {
    const parsed = TreeRecordSchema.safeParse(JSON.parse(item.body));
    record = parsed.success ? parsed.data : null;
  } catch {
    record = null;
  }
  if (!creator || !record || item.source_key !== `tree:${record.tree}`) return false;
  if (recordItemId(workspaceId, creator, record.tree) !== item.id) return false;
  const local = stmt(db, 'SELECT remote FROM tree_sources WHERE item_id = ?').get(item.id) as
    | { remote: number }
    | undefined;
  if (local && local.remote === 0) return false;
  if (item.retired_at !== null) {
    return stmt(db, 'DELETE FROM tree_sources WHERE item_id = ? AND remote = 1').run(item.id).changes > 0;
  }
  stmt(
    db,
    `INSERT INTO tree_sources (id, root, branch, is_git, scope, state, created_by, created_at, item_id, remote,
       record, updated_at, version)
     VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, 1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET root = excluded.root, branch = excluded.branch, is_git = excluded.is_git,
       scope = excluded.scope, record = excluded.record, updated_at = excluded.updated_at,
       version = excluded.version,
       state = CASE WHEN tree_sources.record IS excluded.record THEN tree_sources.state ELSE 'queued' END`,
  ).run(
    item.id,
    item.label,
    record.branch,
    record.git ? 1 : 0,
    item.scope,
    creator,
    item.created_at,
    item.id,
    item.body,
    item.updated_at,
    item.version,
  );
  return true;
}

/** A received tree leaves with its record (evicted, or its replica revoked). */
export function evictTreeRecord(db: Db, itemId: string): boolean {
  return stmt(db, 'DELETE FROM tree_sources WHERE item_id = ? AND remote = 1').run(itemId).changes > 0;
}
