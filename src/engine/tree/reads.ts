/**
 * The reads of a repository tree (docs/TREES.md): the tree a level at a time with summaries,
 * reading a node with its citation, lookup by reference id, node id or path, grep, backlinks and
 * broken links. All use the tree of the indexed commit, refuse until a first build succeeded,
 * and are filtered by the repository's scope (out of sight is the same answer as missing). Text
 * comes from the stored document of the indexed commit, never from the folder as it is now.
 */
import { AppError } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import { stmt } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { logEvent } from '../telemetry.ts';
import { changedLines, commitOf, diffFiles } from './git.ts';
import {
  type CandidateLine,
  candidateLines,
  type GrepScope,
  grepIndexReady,
  storedLines,
} from './grep-index.ts';
import { indexablePath } from './paths.ts';
import { sourceOf, type TreeSource } from './sources.ts';
import type { Change, NodeKind, SummarySource } from './types.ts';

type NodeRow = {
  id: string;
  kind: NodeKind;
  parent: string | null;
  ordinal: number;
  path: string;
  anchor: string | null;
  title: string;
  summary: string;
  summary_source: SummarySource;
  line_start: number;
  own_end: number;
  line_end: number;
  tokens: number;
  status: string | null;
  superseded_by: string | null;
  ref_ids: string;
  changed: string | null;
  outgoing_total: number;
  item_id: string | null;
  children: number;
};

export type NodeView = {
  id: string;
  kind: NodeKind;
  title: string;
  summary: string;
  summarySource: SummarySource;
  path: string;
  lineStart: number;
  lineEnd: number;
  tokens: number;
  status: string | null;
  supersededBy: string | null;
  changed: Change | null;
  children: number;
};

const NODE_SQL = `SELECT n.*, (SELECT COUNT(*) FROM tree_nodes c WHERE c.source_id = n.source_id AND c.parent = n.id) AS children
  FROM tree_nodes n`;

function view(r: NodeRow): NodeView {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    summary: r.summary,
    summarySource: r.summary_source,
    path: r.path,
    lineStart: r.line_start,
    lineEnd: r.line_end,
    tokens: r.tokens,
    status: r.status,
    supersededBy: r.superseded_by,
    changed: r.changed ? (JSON.parse(r.changed) as Change) : null,
    children: r.children,
  };
}

/** A source whose tree can be read: built at least once, and not turned off. */
function readable(engine: Engine, tree?: string): TreeSource & { indexedCommit: string } {
  const source = sourceOf(engine, tree);
  if (source.state === 'off')
    throw new AppError('validation-failed', `The tree of ${source.root} is turned off.`);
  if (!source.indexedCommit)
    throw new AppError(
      'conflict',
      `The tree of ${source.root} is not built yet (${source.state}${source.error ? `: ${source.error}` : ''}).`,
    );
  return source as TreeSource & { indexedCommit: string };
}

/**
 * Every read of a tree goes to Activity ([T11] in docs/TREES.md): which tree, node, commit and
 * lines, and a line a person reads; never the repository's text.
 */
function recordRead(
  engine: Engine,
  source: TreeSource,
  read: string,
  data: Record<string, unknown>,
  summary: string,
) {
  logEvent(engine.db, engine.surface, engine.user, 'tree.read', {
    tree: source.id,
    read,
    commit: source.indexedCommit,
    ...data,
    summary: `tree ${read} ${summary} @ ${(source.indexedCommit ?? '').slice(0, 12)}`,
  });
}

function nodeRow(engine: Engine, source: TreeSource, id: string): NodeRow {
  const row = stmt(engine.db, `${NODE_SQL} WHERE n.source_id = ? AND n.id = ?`).get(source.id, id) as
    | NodeRow
    | undefined;
  if (!row) throw new AppError('not-found', `No node ${id} in the tree of ${source.root}.`);
  return row;
}

function breadcrumb(engine: Engine, source: TreeSource, row: NodeRow): { id: string; title: string }[] {
  const out: { id: string; title: string }[] = [];
  let parent = row.parent;
  while (parent !== null) {
    const p = stmt(engine.db, 'SELECT id, title, parent FROM tree_nodes WHERE source_id = ? AND id = ?').get(
      source.id,
      parent,
    ) as { id: string; title: string; parent: string | null } | undefined;
    if (!p) break;
    out.unshift({ id: p.id, title: p.title });
    parent = p.parent;
  }
  return out;
}

function childrenOf(
  engine: Engine,
  source: TreeSource,
  id: string,
  offset: number,
  limit: number,
): NodeRow[] {
  return stmt(
    engine.db,
    `${NODE_SQL} WHERE n.source_id = ? AND n.parent = ? ORDER BY n.ordinal LIMIT ? OFFSET ?`,
  ).all(source.id, id, limit, offset) as NodeRow[];
}

export type TreeViewInput = { tree?: string; node?: string; depth?: 1 | 2; offset?: number; limit?: number };

/** The node, its breadcrumb and one level of children with summaries (depth 2: their first 20 children too). */
export function treeView(engine: Engine, input: TreeViewInput) {
  const source = readable(engine, input.tree);
  const row = nodeRow(engine, source, input.node ?? '/');
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  const children = childrenOf(engine, source, row.id, offset, limit).map((c) => ({
    ...view(c),
    grandchildren:
      input.depth === 2 && c.children > 0 ? childrenOf(engine, source, c.id, 0, 20).map(view) : undefined,
  }));
  const next = offset + children.length;
  recordRead(engine, source, 'tree', { node: row.id, offset }, `${row.id} (${children.length} children)`);
  return {
    tree: source.id,
    commit: source.indexedCommit,
    node: view(row),
    breadcrumb: breadcrumb(engine, source, row),
    children,
    total: row.children,
    offset,
    nextOffset: next < row.children ? next : null,
  };
}

/** A document's text at the indexed commit, as lines (Git's counting: a final newline ends the last line). */
function documentLines(engine: Engine, source: TreeSource, path: string): string[] {
  const lines = storedLines(engine, documentItem(engine, source, path));
  if (!lines) throw new AppError('not-found', `The text of ${path} is not stored here.`);
  return lines;
}

function documentItem(engine: Engine, source: TreeSource, path: string): string | null {
  const doc = stmt(
    engine.db,
    "SELECT item_id FROM tree_nodes WHERE source_id = ? AND id = ? AND kind = 'document'",
  ).get(source.id, path) as { item_id: string | null } | undefined;
  return doc?.item_id ?? null;
}

/** About 6,000 tokens: a node with children is read whole up to it, and as its own text above it. */
const AUTO_WHOLE_TOKENS = 6000;

export type ReadInput = {
  tree?: string;
  node: string;
  scope?: 'auto' | 'subtree' | 'node';
  fromLine?: number;
  /** Agents: every line starts with its number and a tab, so they cite only the lines that hold the answer. */
  lineNumbers: boolean;
  maxChars: number;
};

type LinkView = { node: string; title: string; kind: 'link' | 'mention'; line: number };

function links(engine: Engine, source: TreeSource, id: string, way: 'out' | 'in'): LinkView[] {
  const sql =
    way === 'out'
      ? `SELECT l.to_id AS node, l.kind, l.line, n.title FROM tree_links l JOIN tree_nodes n
           ON n.source_id = l.source_id AND n.id = l.to_id WHERE l.source_id = ? AND l.from_id = ? ORDER BY l.ordinal LIMIT 20`
      : `SELECT l.from_id AS node, l.kind, l.line, n.title FROM tree_links l JOIN tree_nodes n
           ON n.source_id = l.source_id AND n.id = l.from_id WHERE l.source_id = ? AND l.to_id = ? ORDER BY l.from_id, l.line LIMIT 20`;
  return stmt(engine.db, sql).all(source.id, id) as LinkView[];
}

/** A node's text with its citation (the range read), its children and up to 20 links each way. */
export function readNode(engine: Engine, input: ReadInput) {
  const source = readable(engine, input.tree);
  const row = nodeRow(engine, source, input.node);
  const scope = input.scope ?? 'auto';
  const wholeRead =
    scope === 'subtree' || (scope === 'auto' && (row.children === 0 || row.tokens <= AUTO_WHOLE_TOKENS));
  let text = '';
  let lineStart = row.line_start;
  let lineEnd = wholeRead ? row.line_end : row.own_end;
  let truncated = false;
  let nextLine: number | null = null;
  if (row.kind !== 'root' && row.kind !== 'folder') {
    // A node's path is its document's: a file name may hold `#` itself (`a#b.md`).
    const lines = documentLines(engine, source, row.path);
    if (input.fromLine !== undefined) {
      if (input.fromLine < row.line_start || input.fromLine > lineEnd)
        throw new AppError(
          'validation-failed',
          `fromLine ${input.fromLine} is outside ${row.id} (lines ${row.line_start}–${lineEnd}).`,
        );
      lineStart = input.fromLine;
    }
    const out: string[] = [];
    let chars = 0;
    for (let n = lineStart; n <= lineEnd; n++) {
      const line = input.lineNumbers ? `${n}\t${lines[n - 1] ?? ''}` : (lines[n - 1] ?? '');
      if (out.length === 0 && line.length + 1 > input.maxChars) {
        // One line longer than a whole answer (a generated or minified file): its start, cut, so
        // an answer never passes maxChars; reading goes on at the next line.
        out.push(`${line.slice(0, input.maxChars - 2)}…`);
        truncated = true;
        nextLine = n < lineEnd ? n + 1 : null;
        lineEnd = n;
        break;
      }
      if (chars + line.length + 1 > input.maxChars && out.length > 0) {
        truncated = true;
        nextLine = n;
        lineEnd = n - 1;
        break;
      }
      out.push(line);
      chars += line.length + 1;
    }
    text = out.join('\n');
  }
  const citation = {
    nodeId: row.id,
    path: row.path,
    lineStart: row.kind === 'root' || row.kind === 'folder' ? 0 : lineStart,
    lineEnd: row.kind === 'root' || row.kind === 'folder' ? 0 : lineEnd,
    commit: source.indexedCommit,
  };
  recordRead(
    engine,
    source,
    'read',
    { node: row.id, lines: [citation.lineStart, citation.lineEnd] },
    `${row.id} lines ${citation.lineStart}–${citation.lineEnd}`,
  );
  return {
    tree: source.id,
    node: view(row),
    breadcrumb: breadcrumb(engine, source, row),
    text,
    lineNumbers: input.lineNumbers,
    citation,
    children: childrenOf(engine, source, row.id, 0, 100).map(view),
    outgoing: links(engine, source, row.id, 'out'),
    outgoingTotal: row.outgoing_total,
    incoming: links(engine, source, row.id, 'in'),
    truncated,
    nextLine,
  };
}

/** The nodes a reference id, a node id or a path names, with their breadcrumbs. */
export function lookup(engine: Engine, input: { tree?: string; query: string }) {
  const source = readable(engine, input.tree);
  const q = input.query.trim();
  const asPath = q.replace(/^\/+/, '');
  const rows = stmt(
    engine.db,
    `${NODE_SQL} WHERE n.source_id = ? AND (n.id = ? OR n.id = ? OR n.id = ? OR EXISTS (
       SELECT 1 FROM json_each(n.ref_ids) r WHERE r.value = ? COLLATE NOCASE)) ORDER BY n.id LIMIT 50`,
  ).all(source.id, q, asPath, asPath.endsWith('/') ? asPath : `${asPath}/`, q) as NodeRow[];
  recordRead(
    engine,
    source,
    'lookup',
    { query: q, matches: rows.map((r) => r.id) },
    `"${q.slice(0, 60)}": ${rows.length} found`,
  );
  return {
    tree: source.id,
    commit: source.indexedCommit,
    matches: rows.map((r) => ({ node: view(r), breadcrumb: breadcrumb(engine, source, r) })),
  };
}

const GREP_MAX = 50;

/** How long a grep waits for the write lock to bring its index up to date before reading the documents instead. */
const GREP_LOCK_WAIT_MS = 250;

/** The words a grep asks for: a quoted text is one exact phrase, else every word, in any order. */
function grepTerms(text: string): string[] {
  const t = text.trim();
  const quoted = /^"(.+)"$/.exec(t);
  if (quoted?.[1]) return [quoted[1]];
  return t.split(/\s+/).filter(Boolean);
}

/** Where a grep under a node looks: the whole tree, a folder, or a document's lines (a section's or card's range). */
function grepScope(engine: Engine, source: TreeSource, under: string): GrepScope {
  if (under === '/') return { kind: 'all' };
  const row = nodeRow(engine, source, under);
  if (row.kind === 'root') return { kind: 'all' };
  if (row.kind === 'folder') return { kind: 'folder', prefix: row.id };
  if (row.kind === 'document')
    return { kind: 'document', path: row.path, from: 1, to: Number.MAX_SAFE_INTEGER };
  return { kind: 'document', path: row.path, from: row.line_start, to: row.line_end };
}

/**
 * Every line in the scope read from the stored documents, in path then line order: the grep of a
 * read that could not bring the index up to date (another process held the write lock).
 */
function* scannedLines(engine: Engine, source: TreeSource, scope: GrepScope): Generator<CandidateLine> {
  const docs =
    scope.kind === 'document'
      ? [{ id: scope.path, item_id: documentItem(engine, source, scope.path) }]
      : (
          stmt(
            engine.db,
            "SELECT id, item_id FROM tree_nodes WHERE source_id = ? AND kind = 'document' AND id >= ? ORDER BY id",
          ).all(source.id, scope.kind === 'folder' ? scope.prefix : '') as {
            id: string;
            item_id: string | null;
          }[]
        ).filter((d) => scope.kind === 'all' || d.id.startsWith(scope.prefix));
  for (const doc of docs) {
    const lines = storedLines(engine, doc.item_id) ?? [];
    const from = scope.kind === 'document' ? scope.from : 1;
    const to = scope.kind === 'document' ? Math.min(scope.to, lines.length) : lines.length;
    for (let n = from; n <= to; n++) yield { path: doc.id, line: n, text: lines[n - 1] ?? '' };
  }
}

type GrepNode = { id: string; title: string; line_start: number; own_end: number };

/**
 * Up to 50 lines holding every word of the text (or the quoted phrase), each in the deepest node
 * that holds it; `truncated` when more lines match. The lines come from the grep index
 * (src/engine/tree/grep-index.ts), brought up to date first, which only narrows: each is checked
 * here against the words.
 */
export function grep(
  engine: Engine,
  input: { tree?: string; text: string; under?: string; ignoreCase?: boolean },
) {
  const source = readable(engine, input.tree);
  const terms = grepTerms(input.text);
  if (terms.length === 0) throw new AppError('validation-failed', 'grep: say what to look for.');
  const fold = input.ignoreCase !== false;
  const wanted = fold ? terms.map((w) => w.toLowerCase()) : terms;
  const under = input.under ?? '/';
  const scope = grepScope(engine, source, under);
  const lines = grepIndexReady(engine, source.id, GREP_LOCK_WAIT_MS)
    ? candidateLines(engine.db, source.id, scope, terms, fold)
    : scannedLines(engine, source, scope);
  const matches: { node: string; title: string; path: string; line: number; text: string }[] = [];
  let truncated = false;
  // The nodes of the document the last match was in, deepest first.
  let nodesOf = '';
  let nodes: GrepNode[] = [];
  for (const { path, line, text } of lines) {
    const hay = fold ? text.toLowerCase() : text;
    if (!wanted.every((w) => hay.includes(w))) continue;
    if (matches.length >= GREP_MAX) {
      truncated = true;
      break;
    }
    if (nodesOf !== path) {
      nodesOf = path;
      // A document's nodes are it and its `path#anchor` ids: a range of the primary key (asked by
      // path alone, SQLite scans every node of the tree).
      nodes = stmt(
        engine.db,
        `SELECT id, title, line_start, own_end FROM tree_nodes
         WHERE source_id = ? AND id >= ? AND id < ? AND path = ? ORDER BY line_start DESC`,
      ).all(source.id, path, `${path}$`, path) as GrepNode[];
    }
    const deepest = nodes.find((x) => x.line_start <= line && line <= x.own_end) ?? nodes[nodes.length - 1];
    if (!deepest) continue;
    matches.push({ node: deepest.id, title: deepest.title, path, line, text: text.slice(0, 400) });
  }
  recordRead(
    engine,
    source,
    'grep',
    { query: input.text, under, lines: matches.length },
    `"${input.text.slice(0, 60)}": ${matches.length} lines`,
  );
  return { tree: source.id, commit: source.indexedCommit, matches, truncated };
}

/**
 * The links from other pages to a page (itself, or any heading or card in it) or to one heading
 * or card, one item per link, in the order of the linking node's path and line; refused for a folder.
 */
export function backlinks(
  engine: Engine,
  input: { tree?: string; node: string; offset?: number; limit?: number },
) {
  const source = readable(engine, input.tree);
  const row = nodeRow(engine, source, input.node);
  if (row.kind === 'folder' || row.kind === 'root')
    throw new AppError(
      'validation-failed',
      `${row.id} is a folder: backlinks are of a page, a heading or a card.`,
    );
  // The document's path, not the id up to a `#`: a file name may hold one.
  const page = row.path;
  const targetSql = row.kind === 'document' ? "(l.to_id = ? OR l.to_id LIKE ? ESCAPE '\\')" : 'l.to_id = ?';
  const like = `${page.replace(/[\\%_]/g, (c) => `\\${c}`)}#%`;
  const args = row.kind === 'document' ? [row.id, like] : [row.id];
  const where = `l.source_id = ? AND ${targetSql} AND n.path <> ?`;
  const from = 'FROM tree_links l JOIN tree_nodes n ON n.source_id = l.source_id AND n.id = l.from_id';
  const total = (
    stmt(engine.db, `SELECT COUNT(*) AS n ${from} WHERE ${where}`).get(source.id, ...args, page) as {
      n: number;
    }
  ).n;
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 20;
  const items = stmt(
    engine.db,
    `SELECT l.from_id AS node, l.to_id AS target, l.kind AS linkKind ${from} WHERE ${where}
     ORDER BY n.path, l.line, l.ordinal LIMIT ? OFFSET ?`,
  ).all(source.id, ...args, page, limit, offset) as { node: string; target: string; linkKind: string }[];
  const next = offset + items.length;
  recordRead(engine, source, 'backlinks', { node: row.id, total }, `${row.id}: ${total}`);
  return {
    tree: source.id,
    commit: source.indexedCommit,
    items,
    total,
    offset,
    nextOffset: next < total ? next : null,
  };
}

/** The links of the indexed documents to Markdown files the repository does not have (at most 5,000). */
export function brokenLinks(engine: Engine, input: { tree?: string }) {
  const source = readable(engine, input.tree);
  const links = stmt(
    engine.db,
    'SELECT from_id AS "from", target FROM tree_broken WHERE source_id = ? ORDER BY ordinal',
  ).all(source.id) as { from: string; target: string }[];
  recordRead(engine, source, 'broken', { links: links.length }, `${links.length} broken links`);
  return {
    tree: source.id,
    branch: source.branch,
    commit: source.indexedCommit,
    links,
    truncated: links.length >= 5000,
  };
}

const CHANGES_MAX_DOCS = 100;
const CHANGES_MAX_NODES = 30;

/**
 * What changed from an earlier commit (such as a citation's) to the indexed one, computed from Git
 * on each call, never stored: up to 100 documents (added, modified, deleted, renamed) with the
 * lines added and removed, and up to 30 sections and cards whose own lines changed. A document
 * moved into what the tree indexes is added, one moved out is deleted under its old path.
 */
export async function changes(engine: Engine, input: { tree?: string; since: string; under?: string }) {
  const source = readable(engine, input.tree);
  if (!source.isGit)
    throw new AppError('unsupported', `${source.root} is a plain folder: it has no history to compare.`);
  // A received tree has its documents, not their history (docs/TREES.md [T13]).
  if (source.remote)
    throw new AppError(
      'unsupported',
      `${source.root} is ${source.createdBy}'s repository: its history stays in their clone, so changes are read there (or connect a clone of your own).`,
    );
  const since = await commitOf(source.root, input.since);
  if (!since)
    throw new AppError(
      'not-found',
      `no commit ${input.since} in ${source.root}: give a commit hash or a name such as HEAD~1`,
    );
  const under = input.under && input.under !== '/' ? (input.under.split('#')[0] ?? '') : '';
  const inScope = (p: string | null) => p !== null && indexablePath(p, 0) === null && p.startsWith(under);
  const documents: {
    path: string;
    status: 'added' | 'modified' | 'deleted' | 'renamed';
    oldPath: string | null;
    linesAdded: number | null;
    linesRemoved: number | null;
  }[] = [];
  const nodes: { node: string; title: string; path: string }[] = [];
  let linesKnown = true;
  let truncated = false;
  // Every changed file's hunks, read once (one `git diff`), when the first document needs them.
  let hunks: Map<string, { start: number; end: number }[]> | null | undefined;
  for (const d of await diffFiles(source.root, since, source.indexedCommit)) {
    const now = d.status !== 'deleted' && inScope(d.path);
    const before = d.status === 'renamed' ? inScope(d.oldPath) : d.status === 'deleted' && inScope(d.path);
    if (!now && !before) continue;
    let status = d.status;
    if (d.status === 'renamed' && now && !before) status = 'added';
    if (d.status === 'renamed' && !now && before) status = 'deleted';
    if (documents.length >= CHANGES_MAX_DOCS) {
      truncated = true;
      break;
    }
    const path = status === 'deleted' && d.oldPath ? d.oldPath : d.path;
    documents.push({
      path,
      status,
      oldPath: status === 'renamed' ? d.oldPath : null,
      linesAdded: d.added,
      linesRemoved: d.removed,
    });
    if (status === 'deleted' || nodes.length >= CHANGES_MAX_NODES) continue;
    hunks ??= await changedLines(source.root, since, source.indexedCommit);
    const ranges = hunks?.get(d.path);
    if (!ranges) {
      linesKnown = false;
      continue;
    }
    const parts = stmt(
      engine.db,
      "SELECT id, title, line_start, own_end FROM tree_nodes WHERE source_id = ? AND path = ? AND kind IN ('section', 'card') ORDER BY line_start",
    ).all(source.id, d.path) as { id: string; title: string; line_start: number; own_end: number }[];
    for (const p of parts) {
      if (nodes.length >= CHANGES_MAX_NODES) break;
      if (ranges.some((r) => r.start <= p.own_end && r.end >= p.line_start))
        nodes.push({ node: p.id, title: p.title, path: d.path });
    }
  }
  recordRead(
    engine,
    source,
    'changes',
    { since, documents: documents.length },
    `since ${since.slice(0, 12)}: ${plural(documents.length, 'document')}`,
  );
  return {
    tree: source.id,
    since,
    commit: source.indexedCommit,
    documents,
    nodes,
    linesKnown,
    truncated,
  };
}
