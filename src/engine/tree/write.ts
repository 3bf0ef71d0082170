/**
 * Writing a build's tree (docs/TREES.md [T4]): one transaction that checks the source is still at
 * the commit the build started from and touches only the rows that differ from the stored tree,
 * so the stored rows are those a whole write of the same tree makes. A whole build (or one
 * without the memo of the last build) compares every node and link list with the stored ones; an
 * incremental assembly names the nodes and link lists that may differ and the nodes that are gone
 * ([T14]), and only those are compared. The grep index follows the documents written when it was
 * up to date before ([T11]).
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { indexDocuments, isCurrent } from './grep-index.ts';
import type { TreeRows } from './memo.ts';
import type { ParsedDocument } from './parsed.ts';
import type { BrokenLink, TreeLink, TreeNode } from './types.ts';

/** Whether two rows of values are the same, value by value. */
function sameValues(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

type FileRef = { blob: string; item: string | null };

/** The columns of a node row, in order, as one build writes them (compared to write only what differs). */
function nodeValues(n: TreeNode, file: FileRef | undefined): unknown[] {
  return [
    n.kind,
    n.parent,
    n.ordinal,
    n.path,
    n.anchor,
    n.title,
    n.summary,
    n.summarySource,
    n.lineStart,
    n.ownEnd,
    n.lineEnd,
    n.tokens,
    n.status,
    n.supersededBy,
    JSON.stringify(n.refIds),
    n.changed ? JSON.stringify(n.changed) : null,
    n.outgoingTotal,
    file?.blob ?? null,
    file?.item ?? null,
  ];
}

const NODE_COLUMNS = [
  'kind',
  'parent',
  'ordinal',
  'path',
  'anchor',
  'title',
  'summary',
  'summary_source',
  'line_start',
  'own_end',
  'line_end',
  'tokens',
  'status',
  'superseded_by',
  'ref_ids',
  'changed',
  'outgoing_total',
  'blob',
  'item_id',
] as const;

/** A node's links as one flat list of (to, kind, line) triples. */
function flatLinks(list: readonly TreeLink[]): unknown[] {
  const out: unknown[] = [];
  for (const l of list) out.push(l.to, l.kind, l.line);
  return out;
}

/** Each node's links, grouped by the node they come from. */
export function linksByNode(links: readonly TreeLink[]): Map<string, TreeLink[]> {
  const out = new Map<string, TreeLink[]>();
  for (const l of links) {
    const list = out.get(l.from);
    if (list) list.push(l);
    else out.set(l.from, [l]);
  }
  return out;
}

function storedRows(db: Db, sourceId: string): TreeRows {
  const nodes = new Map(
    (
      stmt(db, `SELECT id, ${NODE_COLUMNS.join(', ')} FROM tree_nodes WHERE source_id = ?`).all(
        sourceId,
      ) as Record<string, unknown>[]
    ).map((r) => [String(r.id), NODE_COLUMNS.map((c) => r[c])]),
  );
  const links = new Map<string, unknown[]>();
  for (const r of stmt(
    db,
    'SELECT from_id, ordinal, to_id, kind, line FROM tree_links WHERE source_id = ? ORDER BY from_id, ordinal',
  ).all(sourceId) as { from_id: string; to_id: string; kind: string; line: number }[]) {
    const list = links.get(r.from_id);
    if (list) list.push(r.to_id, r.kind, r.line);
    else links.set(r.from_id, [r.to_id, r.kind, r.line]);
  }
  return { nodes, links };
}

function storedBroken(db: Db, sourceId: string): BrokenLink[] {
  return stmt(
    db,
    'SELECT from_id AS "from", target FROM tree_broken WHERE source_id = ? ORDER BY ordinal',
  ).all(sourceId) as BrokenLink[];
}

export type TreeWrite = {
  sourceId: string;
  root: string;
  /** The commit the stored tree was at when the build started. */
  indexedBefore: string | null;
  /**
   * The nodes to compare and write. With `goneNodes`, they are those that may differ and the
   * others stand as stored; without, they are the whole tree and every other stored node goes.
   */
  nodes: Iterable<TreeNode>;
  goneNodes: Iterable<string> | null;
  /** Link lists by source node, the same way: with `linksComplete` false, only those that may differ (empty: none now). */
  links: Map<string, TreeLink[]>;
  linksComplete: boolean;
  broken: BrokenLink[];
  /** Each document's bytes and file item. */
  fileOf: (path: string) => FileRef | undefined;
  /** The documents parsed now, stored for the next incremental build, and those the tree no longer has. */
  parsed: Map<string, { blob: string; json: string; doc: ParsedDocument }>;
  goneDocs: Iterable<string>;
  /** The rows as stored (the memo's, changed in place), or null to read them. */
  stored: { rows: TreeRows; broken: BrokenLink[] } | null;
  /** Columns of the source's row to set. */
  state: (at: string) => Record<string, unknown>;
  whole: boolean;
  /** The record replicas build the tree from (a tree built here), made inside the transaction. */
  record: (() => string) | null;
};

/** Writes what differs, in one transaction; returns when it was written and the rows now stored. */
export function writeTree(
  engine: Engine,
  w: TreeWrite,
): { at: string; rows: TreeRows; broken: BrokenLink[] } {
  const db = engine.db;
  let at = '';
  let rows: TreeRows = { nodes: new Map(), links: new Map() };
  writeTx(db, () => {
    const now = stmt(db, 'SELECT indexed_commit FROM tree_sources WHERE id = ?').get(w.sourceId) as
      | { indexed_commit: string | null }
      | undefined;
    if (!now) throw new AppError('not-found', `${w.root} was disconnected during its build.`);
    if (now.indexed_commit !== w.indexedBefore)
      throw new AppError('conflict', `${w.root} was built by another process meanwhile: build again.`);
    const grepWasCurrent = isCurrent(db, w.sourceId);
    const stored = w.stored ?? { rows: storedRows(db, w.sourceId), broken: storedBroken(db, w.sourceId) };
    rows = stored.rows;
    const documents = writeNodes(db, w, rows.nodes);
    writeLinks(db, w, rows.links);
    if (JSON.stringify(stored.broken) !== JSON.stringify(w.broken)) {
      stmt(db, 'DELETE FROM tree_broken WHERE source_id = ?').run(w.sourceId);
      const broken = stmt(
        db,
        'INSERT INTO tree_broken (source_id, ordinal, from_id, target) VALUES (?, ?, ?, ?)',
      );
      for (const [i, b] of w.broken.entries()) broken.run(w.sourceId, i, b.from, b.target);
    }
    // The parsed documents, for the next incremental build: those parsed now (new bytes, or the
    // same bytes with another last change), and none the tree no longer has.
    const putDoc = stmt(
      db,
      'INSERT OR REPLACE INTO tree_docs (source_id, path, blob, parsed) VALUES (?, ?, ?, ?)',
    );
    for (const [path, d] of w.parsed) putDoc.run(w.sourceId, path, d.blob, d.json);
    const dropDoc = stmt(db, 'DELETE FROM tree_docs WHERE source_id = ? AND path = ?');
    for (const path of w.goneDocs) dropDoc.run(w.sourceId, path);
    at = new Date().toISOString();
    const fields = w.state(at);
    const keys = Object.keys(fields);
    stmt(db, `UPDATE tree_sources SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
      ...keys.map((k) => fields[k]),
      w.sourceId,
    );
    if (!w.whole)
      stmt(db, 'UPDATE tree_sources SET incremental_builds = incremental_builds + 1 WHERE id = ?').run(
        w.sourceId,
      );
    if (w.record) {
      const text = w.record();
      stmt(
        db,
        `UPDATE tree_sources SET record = ?, updated_at = ?, version = version + 1
         WHERE id = ? AND record IS NOT ?`,
      ).run(text, at, w.sourceId, text);
    }
    // The grep index matched the tree before: only the documents written can differ from it now.
    if (grepWasCurrent) indexDocuments(engine, w.sourceId, documents);
  });
  return { at, rows, broken: w.broken };
}

/** Writes the nodes that differ and drops those gone; returns the document nodes written or dropped. */
function writeNodes(db: Db, w: TreeWrite, stored: Map<string, unknown[]>): Set<string> {
  const upsert = stmt(
    db,
    `INSERT OR REPLACE INTO tree_nodes (source_id, id, ${NODE_COLUMNS.join(', ')})
     VALUES (?, ?, ${NODE_COLUMNS.map(() => '?').join(', ')})`,
  );
  const documents = new Set<string>();
  const keep = w.goneNodes ? null : new Set<string>();
  for (const n of w.nodes) {
    keep?.add(n.id);
    const values = nodeValues(n, n.kind === 'document' ? w.fileOf(n.path) : undefined);
    if (sameValues(stored.get(n.id), values)) continue;
    if (n.kind === 'document' || stored.get(n.id)?.[0] === 'document') documents.add(n.id);
    upsert.run(w.sourceId, n.id, ...values);
    stored.set(n.id, values);
  }
  const gone = w.goneNodes ?? [...stored.keys()].filter((id) => !keep?.has(id));
  const dropNode = stmt(db, 'DELETE FROM tree_nodes WHERE source_id = ? AND id = ?');
  for (const id of gone) {
    if (stored.get(id)?.[0] === 'document') documents.add(id);
    dropNode.run(w.sourceId, id);
    stored.delete(id);
  }
  return documents;
}

/** Rewrites the link lists that differ. */
function writeLinks(db: Db, w: TreeWrite, stored: Map<string, unknown[]>): void {
  const dropLinks = stmt(db, 'DELETE FROM tree_links WHERE source_id = ? AND from_id = ?');
  const addLink = stmt(
    db,
    'INSERT INTO tree_links (source_id, from_id, ordinal, to_id, kind, line) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [from, list] of w.links) {
    const values = flatLinks(list);
    const before = stored.get(from);
    if (values.length === 0) {
      if (!before) continue;
      dropLinks.run(w.sourceId, from);
      stored.delete(from);
      continue;
    }
    if (sameValues(before, values)) continue;
    if (before) dropLinks.run(w.sourceId, from);
    for (let i = 0; i < values.length; i += 3)
      addLink.run(w.sourceId, from, i / 3, values[i], values[i + 1], values[i + 2]);
    stored.set(from, values);
  }
  if (!w.linksComplete) return;
  for (const from of [...stored.keys()]) {
    if (w.links.has(from)) continue;
    dropLinks.run(w.sourceId, from);
    stored.delete(from);
  }
}
