/**
 * What the last build of a source in this process wrote (docs/TREES.md [T4], [T14], [T15]): the
 * next build of the same source starts from it instead of listing the whole commit, assembling
 * the whole tree and comparing every stored row again, which is what keeps a host's one-file
 * build short. It stands only while the source is at the build that made it (the same
 * `built_at`) under the same workspace and user: a build by another process, a disconnect or a
 * write that failed leaves it unused, and the database is read as before. A build takes the memo
 * out while it runs (it changes it in place) and puts the new one back only once its write
 * succeeded, so a failed or concurrent build never sees a half-changed memo.
 */
import { type Db, stmt } from '../db/driver.ts';
import type { Assembly } from './assemble.ts';
import type { History } from './git.ts';
import type { ParsedDocument } from './parsed.ts';
import type { SharedDoc } from './share.ts';
import type { BrokenLink } from './types.ts';

/** A file of the source: its path, what identifies its bytes (Git's blob id; a folder file's size and modified time) and size. */
export type Entry = { path: string; blob: string; size: number };

/** A document the last build stored: from this process's memo (parsed) or the database (its JSON). */
export type StoredDoc = {
  blob: string;
  item: string | null;
  doc: ParsedDocument | null;
  json: string | null;
};

/** The stored rows of a tree: each node's column values, and each node's links as flat (to, kind, line) triples. */
export type TreeRows = { nodes: Map<string, unknown[]>; links: Map<string, unknown[]> };

export type BuildMemo = {
  builtAt: string;
  /** The workspace and user it was made under: joining a server re-keys the items it names. */
  owner: string;
  /** The commit it was built from. */
  commit: string;
  docs: Map<string, StoredDoc>;
  rows: TreeRows;
  broken: BrokenLink[];
  assembly: Assembly;
  /** The Markdown files the tree does not hold, with the reason. */
  skipped: Map<string, string>;
  /** A local Git source: every file of the commit, and the history the build read. */
  git: { files: Map<string, Entry>; history: History } | null;
  /** A tree built here: its creator's document items, by path (what the record is made from). */
  shared: Map<string, SharedDoc> | null;
};

const memos = new WeakMap<Db, Map<string, BuildMemo>>();

/** The memo of a source's last build, taken out (null when there is none that stands). */
export function takeMemo(db: Db, sourceId: string, owner: string): BuildMemo | null {
  const memo = memos.get(db)?.get(sourceId);
  if (!memo) return null;
  memos.get(db)?.delete(sourceId);
  if (memo.owner !== owner) return null;
  const row = stmt(db, 'SELECT built_at FROM tree_sources WHERE id = ?').get(sourceId) as
    | { built_at: string | null }
    | undefined;
  return row?.built_at === memo.builtAt ? memo : null;
}

export function keepMemo(db: Db, sourceId: string, memo: BuildMemo): void {
  let bySource = memos.get(db);
  if (!bySource) {
    bySource = new Map();
    memos.set(db, bySource);
  }
  bySource.set(sourceId, memo);
}

/** A host stays up for days: the memo of a disconnected tree's last build goes with it. */
export function dropMemo(db: Db, sourceId: string): void {
  memos.get(db)?.delete(sourceId);
}

/** The documents the last build stored: the memo's, else read from the database. */
export function storedDocs(db: Db, sourceId: string, memo: BuildMemo | null): Map<string, StoredDoc> {
  if (memo) return memo.docs;
  const rows = stmt(
    db,
    `SELECT d.path, d.blob, d.parsed, n.item_id AS item FROM tree_docs d
     LEFT JOIN tree_nodes n ON n.source_id = d.source_id AND n.id = d.path WHERE d.source_id = ?`,
  ).all(sourceId) as { path: string; blob: string; parsed: string; item: string | null }[];
  return new Map(rows.map((r) => [r.path, { blob: r.blob, item: r.item, doc: null, json: r.parsed }]));
}
