/**
 * The grep index of a repository tree (docs/TREES.md [T11]; tables of
 * src/engine/db/migrations/0014-tree-grep.ts): the lines of each document of the indexed commit,
 * with their trigrams, so a grep asks SQLite for the lines that could hold its words instead of
 * reading and scanning every document's blob on each call.
 *
 * It is kept up to date lazily: `refreshGrepIndex` compares the tree's document nodes (path, blob,
 * item) with what the index holds, and in one write transaction indexes again only the documents
 * whose blob or item differs and drops those no longer in the tree. `grep` calls it first (a build
 * may call it too); when another process holds the write lock and the index is behind, grep reads
 * the documents instead (docs/WORKSPACE.md [B1]: reads answer while another process writes). A
 * source whose index matched its tree is recorded (`tree_grep_sources`) until a write of one of its
 * document nodes takes it out (triggers on `tree_nodes`), so most greps compare nothing.
 *
 * The index only narrows: `candidateLines` gives every line that could match (a superset, in path
 * then line order) and grep checks each against its words exactly as before. The trigram table
 * holds each line lower-cased by `toLowerCase`, the very text a grep that ignores case checks, so
 * a word of three or more code points narrows exactly; shorter words cannot be asked for by
 * trigrams and are only checked.
 */
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';

/** A document node of the tree, as the grep index compares it. */
type DocKey = { path: string; blob: string | null; item_id: string | null };

/** A document's text as lines, Git's counting (a final newline ends the last line). */
function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '' && /\n$/.test(text)) lines.pop();
  return lines;
}

/** The lines of a document's stored item (its bytes at the indexed commit); null when none is stored here. */
export function storedLines(engine: Engine, itemId: string | null): string[] | null {
  const item = itemId
    ? (stmt(engine.db, 'SELECT blob FROM items WHERE id = ?').get(itemId) as
        | { blob: string | null }
        | undefined)
    : undefined;
  if (!item?.blob) return null;
  return splitLines(engine.blobs.get(item.blob).toString('utf8'));
}

/** Whether the index is known to match the tree: no document node was written since it last did. */
export function isCurrent(db: Db, sourceId: string): boolean {
  return stmt(db, 'SELECT 1 FROM tree_grep_sources WHERE source_id = ?').get(sourceId) !== undefined;
}

/** What differs between the tree's documents and the index: documents to index again, and paths to drop. */
function staleOf(db: Db, sourceId: string): { changed: DocKey[]; gone: string[] } {
  const changed = stmt(
    db,
    `SELECT n.id AS path, n.blob, n.item_id FROM tree_nodes n
     LEFT JOIN tree_grep_docs g ON g.source_id = n.source_id AND g.path = n.id
     WHERE n.source_id = ? AND n.kind = 'document'
       AND (g.path IS NULL OR g.blob IS NOT n.blob OR g.item_id IS NOT n.item_id)`,
  ).all(sourceId) as DocKey[];
  const gone = (
    stmt(
      db,
      `SELECT g.path FROM tree_grep_docs g WHERE g.source_id = ? AND NOT EXISTS (
         SELECT 1 FROM tree_nodes n WHERE n.source_id = g.source_id AND n.id = g.path AND n.kind = 'document')`,
    ).all(sourceId) as { path: string }[]
  ).map((r) => r.path);
  return { changed, gone };
}

const keyOf = (d: DocKey) => `${d.path}\0${d.blob ?? ''}\0${d.item_id ?? ''}`;

function writeDocument(db: Db, sourceId: string, doc: DocKey, lines: readonly string[] | null): void {
  stmt(db, 'DELETE FROM tree_grep_docs WHERE source_id = ? AND path = ?').run(sourceId, doc.path);
  stmt(db, 'INSERT INTO tree_grep_docs (source_id, path, blob, item_id) VALUES (?, ?, ?, ?)').run(
    sourceId,
    doc.path,
    doc.blob,
    doc.item_id,
  );
  const line = stmt(db, 'INSERT INTO tree_grep_lines (source_id, path, line, text) VALUES (?, ?, ?, ?)');
  const trigrams = stmt(db, 'INSERT INTO tree_grep_fts (rowid, folded) VALUES (?, ?)');
  for (const [i, text] of (lines ?? []).entries()) {
    // An empty line holds no word: no grep can find it.
    if (text === '') continue;
    const { lastInsertRowid } = line.run(sourceId, doc.path, i + 1, text);
    trigrams.run(lastInsertRowid, text.toLowerCase());
  }
}

/**
 * Brings the index of some documents to the tree, inside the caller's write transaction, and
 * records the index as matching: for a build that found it matching before and wrote (or
 * dropped) only these document nodes, so no other document can differ.
 */
export function indexDocuments(engine: Engine, sourceId: string, paths: Iterable<string>): void {
  const db = engine.db;
  const node = stmt(
    db,
    "SELECT id AS path, blob, item_id FROM tree_nodes WHERE source_id = ? AND id = ? AND kind = 'document'",
  );
  const indexed = stmt(db, 'SELECT blob, item_id FROM tree_grep_docs WHERE source_id = ? AND path = ?');
  const drop = stmt(db, 'DELETE FROM tree_grep_docs WHERE source_id = ? AND path = ?');
  for (const path of paths) {
    const doc = node.get(sourceId, path) as DocKey | undefined;
    const now = indexed.get(sourceId, path) as { blob: string | null; item_id: string | null } | undefined;
    if (!doc) {
      if (now) drop.run(sourceId, path);
      continue;
    }
    if (now && now.blob === doc.blob && now.item_id === doc.item_id) continue;
    writeDocument(db, sourceId, doc, storedLines(engine, doc.item_id));
  }
  stmt(
    db,
    'INSERT OR IGNORE INTO tree_grep_sources (source_id) SELECT id FROM tree_sources WHERE id = ?',
  ).run(sourceId);
}

type GrepIndexRefresh = { indexed: number; dropped: number };

/**
 * Brings the grep index of a source to its tree: documents whose blob or item differ from what the
 * index holds are indexed again, documents no longer in the tree are dropped, in one write
 * transaction (the texts are read before it, so the lock is held briefly). `lockWaitMs` bounds the
 * wait for another process's write lock (the driver's timeout when absent); past it, `busy`.
 */
export function refreshGrepIndex(
  engine: Engine,
  sourceId: string,
  options: { lockWaitMs?: number } = {},
): GrepIndexRefresh {
  const db = engine.db;
  if (isCurrent(db, sourceId)) return { indexed: 0, dropped: 0 };
  const before = staleOf(db, sourceId);
  const texts = new Map<string, string[] | null>();
  for (const d of before.changed) texts.set(keyOf(d), storedLines(engine, d.item_id));
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  if (options.lockWaitMs !== undefined) db.pragma(`busy_timeout = ${Math.min(timeout, options.lockWaitMs)}`);
  try {
    return writeTx(db, () => {
      // Read again under the lock: a build may have moved the tree since.
      const now = staleOf(db, sourceId);
      for (const d of now.changed) {
        const key = keyOf(d);
        writeDocument(
          db,
          sourceId,
          d,
          texts.has(key) ? (texts.get(key) ?? null) : storedLines(engine, d.item_id),
        );
      }
      const drop = stmt(db, 'DELETE FROM tree_grep_docs WHERE source_id = ? AND path = ?');
      for (const path of now.gone) drop.run(sourceId, path);
      stmt(
        db,
        'INSERT OR IGNORE INTO tree_grep_sources (source_id) SELECT id FROM tree_sources WHERE id = ?',
      ).run(sourceId);
      return { indexed: now.changed.length, dropped: now.gone.length };
    });
  } finally {
    if (options.lockWaitMs !== undefined) db.pragma(`busy_timeout = ${timeout}`);
  }
}

/**
 * Brings the index up to date for a read, waiting at most `lockWaitMs` for the write lock. When
 * another process holds it: whether the index matches the tree all the same (else the caller
 * reads the documents).
 */
export function grepIndexReady(engine: Engine, sourceId: string, lockWaitMs: number): boolean {
  try {
    refreshGrepIndex(engine, sourceId, { lockWaitMs });
    return true;
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'busy')) throw err;
    const { changed, gone } = staleOf(engine.db, sourceId);
    return changed.length === 0 && gone.length === 0;
  }
}

/** Where a grep looks: every document, those under a folder, or one document (with a line range for a section or card). */
export type GrepScope =
  | { kind: 'all' }
  | { kind: 'folder'; prefix: string }
  | { kind: 'document'; path: string; from: number; to: number };

export type CandidateLine = { path: string; line: number; text: string };

/** The FTS5 query for the words: each word of three or more code points as a phrase; null when none is. */
function trigramQuery(words: readonly string[], ignoreCase: boolean): string | null {
  const phrases: string[] = [];
  for (const word of words) {
    // Lower-casing is the same in any context except for a capital sigma (final or not): a
    // case-sensitive word is asked for by its pieces around one, so the index stays a superset.
    const pieces = ignoreCase ? [word.toLowerCase()] : word.split('Σ').map((p) => p.toLowerCase());
    for (const p of pieces) if ([...p].length >= 3) phrases.push(`"${p.replace(/"/g, '""')}"`);
  }
  return phrases.length > 0 ? phrases.join(' AND ') : null;
}

const PAGE = 2_000;

/**
 * Every indexed line in the scope that could hold all the words, in path then line order, a page
 * at a time (the caller may stop early and runs its own statements between pages).
 */
export function* candidateLines(
  db: Db,
  sourceId: string,
  scope: GrepScope,
  words: readonly string[],
  ignoreCase: boolean,
): Generator<CandidateLine> {
  const match = trigramQuery(words, ignoreCase);
  const where = ['l.source_id = ?'];
  const args: (string | number)[] = [sourceId];
  if (match) {
    where.push('l.id IN (SELECT rowid FROM tree_grep_fts WHERE tree_grep_fts MATCH ?)');
    args.push(match);
  }
  if (scope.kind === 'folder') {
    // A folder's id ends with '/': every path under it sorts from it up to the same text ending in '0'.
    where.push('l.path >= ? AND l.path < ?');
    args.push(scope.prefix, `${scope.prefix.slice(0, -1)}0`);
  } else if (scope.kind === 'document') {
    where.push('l.path = ? AND l.line BETWEEN ? AND ?');
    args.push(scope.path, scope.from, scope.to);
  }
  const page = stmt(
    db,
    `SELECT l.path, l.line, l.text FROM tree_grep_lines l
     WHERE ${where.join(' AND ')} AND (l.path, l.line) > (?, ?)
     ORDER BY l.path, l.line LIMIT ${PAGE}`,
  );
  let after = { path: '', line: 0 };
  for (;;) {
    const rows = page.all(...args, after.path, after.line) as CandidateLine[];
    yield* rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return;
    after = last;
  }
}
