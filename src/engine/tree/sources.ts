/**
 * Connected repositories (docs/TREES.md): connecting one, its state, turning it off, and the
 * build that turns the documents of its commit into the stored tree. A build reads the documents
 * (from Git at the branch's commit, or from disk for a plain folder), stores each as an ordinary
 * file item of the workspace (so search and chat find and cite them), builds the tree and writes
 * it in one transaction. A failed build keeps the last good tree readable and is not retried on
 * the same commit.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { AppError } from '#shared/errors.ts';
import { type AddResult, addBytes } from '../add/add.ts';
import { expandPaths } from '../add/add-read.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { retireFile } from '../knowledge/retire.ts';
import { assertCanWrite, canSee, parseScope } from '../scope.ts';
import {
  currentBranch,
  gitTopLevel,
  isAncestor,
  lastChanges,
  listFiles,
  readBlobs,
  resolveCommit,
} from './git.ts';
import { refreshGrepIndex } from './grep-index.ts';
import { assembleTree, indexablePath, PARSED_VERSION, type ParsedDocument, parseDocument } from './index.ts';
import { SKIP_TOO_LARGE } from './paths.ts';
import {
  fingerprintOf,
  type RepoOrigin,
  recordItemId,
  repoOriginOf,
  repoOriginText,
  type SharedDoc,
  sharedDocs,
  type TreeRecord,
  TreeRecordSchema,
} from './share.ts';
import type { BuiltTree, Change } from './types.ts';

/** Bumped when the builder's output changes: a tree made by an older builder is built again. */
const BUILDER_VERSION = 2;

type TreeState = 'not-built' | 'queued' | 'indexing' | 'ready' | 'failed' | 'off';

type TreeCounts = {
  documents: number;
  folders: number;
  sections: number;
  cards: number;
  links: number;
  broken: number;
  skipped: number;
};

export type TreeSource = {
  id: string;
  root: string;
  branch: string | null;
  isGit: boolean;
  scope: string;
  state: TreeState;
  indexedCommit: string | null;
  attemptedCommit: string | null;
  counts: TreeCounts;
  error: string | null;
  builtAt: string | null;
  createdBy: string;
  createdAt: string;
  remote: boolean;
  waitingFor: number | null;
};

type SourceRow = {
  id: string;
  root: string;
  branch: string | null;
  is_git: number;
  scope: string;
  state: TreeState;
  indexed_commit: string | null;
  attempted_commit: string | null;
  counts: string;
  error: string | null;
  built_at: string | null;
  created_by: string;
  created_at: string;
  item_id: string | null;
  remote: number;
  record: string | null;
  retired_at: string | null;
  updated_at: string | null;
  version: number;
  waiting_for: number | null;
};

const EMPTY_COUNTS: TreeCounts = {
  documents: 0,
  folders: 0,
  sections: 0,
  cards: 0,
  links: 0,
  broken: 0,
  skipped: 0,
};

function toSource(r: SourceRow): TreeSource {
  return {
    id: r.id,
    root: r.root,
    branch: r.branch,
    isGit: r.is_git === 1,
    scope: r.scope,
    state: r.state,
    indexedCommit: r.indexed_commit,
    attemptedCommit: r.attempted_commit,
    counts: { ...EMPTY_COUNTS, ...(JSON.parse(r.counts) as Partial<TreeCounts>) },
    error: r.error,
    builtAt: r.built_at,
    createdBy: r.created_by,
    createdAt: r.created_at,
    remote: r.remote === 1,
    waitingFor: r.remote === 1 ? r.waiting_for : null,
  };
}

/** The repositories the member can see (their scope is one of the member's). */
export function listSources(engine: Engine): TreeSource[] {
  const scopes = engine.scopes();
  return (
    stmt(
      engine.db,
      'SELECT * FROM tree_sources WHERE retired_at IS NULL ORDER BY created_at, id',
    ).all() as SourceRow[]
  )
    .filter((r) => canSee(scopes, r.scope))
    .map(toSource);
}

/**
 * One repository by id, or the only one the member can see when none is named. Out of sight is
 * the same answer as missing.
 */
export function sourceOf(engine: Engine, id?: string): TreeSource {
  const visible = listSources(engine);
  if (id) {
    const found = visible.find((s) => s.id === id);
    if (!found) throw new AppError('not-found', `No connected repository ${id}.`);
    return found;
  }
  if (visible.length === 1 && visible[0]) return visible[0];
  if (visible.length === 0)
    throw new AppError(
      'not-found',
      'No repository is connected: `brain tree connect <folder>` connects one.',
    );
  throw new AppError(
    'validation-failed',
    `Several repositories are connected: say which (${visible.map((s) => s.id).join(', ')}).`,
  );
}

function sourceId(workspaceId: string, root: string): string {
  return `tree_${createHash('sha256').update(`${workspaceId}\0${root}`).digest('hex').slice(0, 16)}`;
}

/** Connects a repository (or a plain folder): recorded as not built; the caller builds it. */
export async function connectSource(
  engine: Engine,
  input: { folder: string; branch?: string; scope?: string },
): Promise<TreeSource> {
  const folder = resolve(input.folder);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw new AppError('not-found', `${folder} is not a folder.`);
  const scope = parseScope(input.scope);
  assertCanWrite(engine.db, engine.user, scope);
  const top = await gitTopLevel(folder);
  const root = top ?? folder;
  const branch = top ? (input.branch ?? (await currentBranch(root))) : null;
  if (!top && input.branch)
    throw new AppError(
      'validation-failed',
      `${folder} is not a Git repository: it has no branch ${input.branch}.`,
    );
  if (top && !(await resolveCommit(root, branch)))
    throw new AppError('not-found', `${root} has no branch ${branch ?? 'HEAD'} (or no commit yet).`);
  const id = sourceId(engine.workspaceId, root);
  const existing = stmt(engine.db, 'SELECT * FROM tree_sources WHERE id = ?').get(id) as
    | SourceRow
    | undefined;
  if (existing && existing.retired_at === null) {
    if (!canSee(engine.scopes(), existing.scope))
      throw new AppError('validation-failed', `${root} is connected already, in a scope you cannot see.`);
    stmt(
      engine.db,
      "UPDATE tree_sources SET branch = ?, state = CASE WHEN state = 'off' THEN 'not-built' ELSE state END WHERE id = ?",
    ).run(branch, id);
    return sourceOf(engine, id);
  }
  // A disconnected repository connected again starts anew (its record is told to replicas again).
  if (existing) stmt(engine.db, 'DELETE FROM tree_sources WHERE id = ?').run(id);
  stmt(
    engine.db,
    `INSERT INTO tree_sources (id, root, branch, is_git, scope, state, created_by, created_at, item_id, version)
     VALUES (?, ?, ?, ?, ?, 'not-built', ?, ?, ?, ?)`,
  ).run(
    id,
    root,
    branch,
    top ? 1 : 0,
    scope,
    engine.user,
    new Date().toISOString(),
    recordItemId(engine.workspaceId, engine.user, id),
    (existing?.version ?? 0) + 1,
  );
  return sourceOf(engine, id);
}

/**
 * Forgets a repository and its tree (its documents stay as files of the workspace). Its record
 * stays as a tombstone, so the replicas that received the tree forget it too ([T13]). A tree
 * received from another replica follows its creator's connection: it cannot be disconnected here.
 */
export function disconnectSource(engine: Engine, id?: string): { disconnected: string } {
  const source = sourceOf(engine, id);
  if (source.remote)
    throw new AppError(
      'validation-failed',
      `${source.root} is ${source.createdBy}'s repository, shared with you: it goes when they disconnect it.`,
    );
  assertCanWrite(engine.db, engine.user, source.scope);
  // A host stays up for days: the memo of a disconnected tree's last build goes with it.
  memos.get(engine.db)?.delete(source.id);
  writeTx(engine.db, () => {
    for (const table of [
      'tree_nodes',
      'tree_links',
      'tree_broken',
      'tree_docs',
      'tree_grep_docs',
      'tree_grep_sources',
    ])
      stmt(engine.db, `DELETE FROM ${table} WHERE source_id = ?`).run(source.id);
    const at = new Date().toISOString();
    stmt(
      engine.db,
      `UPDATE tree_sources SET retired_at = ?, updated_at = ?, version = version + 1, state = 'off',
       indexed_commit = NULL, whole_built_at = NULL WHERE id = ?`,
    ).run(at, at, source.id);
  });
  return { disconnected: source.id };
}

/** Sets columns of a source's row (names from this file only, never from input). */
function setState(db: Db, id: string, fields: Record<string, unknown>): void {
  const keys = Object.keys(fields);
  stmt(db, `UPDATE tree_sources SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
    ...keys.map((k) => fields[k]),
    id,
  );
}

/** A file of the source: its path, what identifies its bytes (Git's blob id; a folder file's size and modified time) and size. */
type Entry = { path: string; blob: string; size: number };

type Listing = {
  commit: string;
  entries: Entry[];
  changes: Map<string, Change> | null;
  /** The bytes of some entries, by path. */
  read(entries: readonly Entry[]): Promise<Map<string, Buffer>>;
  /** A received tree: its documents are items already (by path), and the paths its record names. */
  shared?: { items: Map<string, string>; others: string[] };
  /** A received tree whose documents have not all arrived: how many it waits for. */
  waitingFor?: number;
  /** The repository's name: the root node's title. */
  name: string;
};

/** A fingerprint of a plain folder's indexed documents: it stands for the commit a folder has not. */
function folderFingerprint(docs: readonly { path: string; blob: string }[]): string {
  const h = createHash('sha256');
  for (const d of [...docs].sort((a, b) => (a.path < b.path ? -1 : 1))) h.update(`${d.path}\0${d.blob}\0`);
  return `folder:${h.digest('hex').slice(0, 16)}`;
}

/** A received tree's record, as stored when it arrived (null when it cannot be read). */
function recordOf(engine: Engine, source: TreeSource): TreeRecord | null {
  const row = stmt(engine.db, 'SELECT record FROM tree_sources WHERE id = ?').get(source.id) as
    | { record: string | null }
    | undefined;
  if (!row?.record) return null;
  const parsed = TreeRecordSchema.safeParse(JSON.parse(row.record));
  return parsed.success ? parsed.data : null;
}

/**
 * A tree received from another replica ([T13]): its creator's documents as they are here, when
 * they are exactly the ones its record names and their bytes are here; else how many are missing.
 */
function listShared(engine: Engine, source: TreeSource): Listing {
  const record = recordOf(engine, source);
  if (!record) throw new AppError('validation-failed', `The record of ${source.root} cannot be read.`);
  const docs = sharedDocs(engine.db, engine.workspaceId, source.createdBy, record.tree);
  const present = docs.filter((d) => engine.blobs.has(d.blob));
  const waitingFor =
    fingerprintOf(docs) === record.fingerprint
      ? docs.length - present.length
      : Math.max(1, record.documents - present.length);
  return {
    commit: record.commit ?? `folder:${record.fingerprint.slice(0, 16)}`,
    entries: docs.map((d) => ({ path: d.path, blob: d.blob, size: d.size })),
    changes: new Map(docs.flatMap((d) => (d.changed ? [[d.path, d.changed] as const] : []))),
    async read(wanted) {
      return new Map(wanted.map((e) => [e.path, engine.blobs.get(e.blob)]));
    },
    shared: { items: new Map(docs.map((d) => [d.path, d.id])), others: record.others },
    waitingFor,
    name: source.root,
  };
}

/** Every file of the source's commit (Git) or of the folder as it is now, read lazily. */
async function listSource(engine: Engine, source: TreeSource): Promise<Listing> {
  if (source.remote) return listShared(engine, source);
  if (source.isGit) {
    const commit = await resolveCommit(source.root, source.branch);
    if (!commit) throw new AppError('not-found', `${source.root} has no branch ${source.branch ?? 'HEAD'}.`);
    const entries = await listFiles(source.root, commit);
    return {
      commit,
      entries,
      name: basename(source.root),
      changes: await lastChanges(source.root, commit),
      async read(wanted) {
        const blobs = await readBlobs(
          source.root,
          wanted.map((e) => e.blob),
        );
        return new Map(wanted.map((e) => [e.path, blobs.get(e.blob) ?? Buffer.alloc(0)]));
      },
    };
  }
  // A folder has no ids for its bytes: a file is known by its size and modified time, so a host's
  // minute-by-minute look at its tip stats the files and reads none; a build reads what changed.
  const refused: { path: string; reason: string }[] = [];
  const entries: Entry[] = [];
  for (const f of await expandPaths([source.root], refused)) {
    const path = relative(source.root, f.path).split(sep).join('/');
    const st = await stat(f.path).catch(() => null);
    if (st) entries.push({ path, blob: `stat:${st.size}:${Math.trunc(st.mtimeMs)}`, size: st.size });
  }
  return {
    commit: folderFingerprint(entries.filter((e) => indexablePath(e.path, e.size) === null)),
    entries,
    name: basename(source.root),
    changes: null,
    async read(wanted) {
      const out = new Map<string, Buffer>();
      for (const e of wanted) out.set(e.path, await readFile(join(source.root, e.path)));
      return out;
    },
  };
}

function countsOf(tree: BuiltTree, skipped: number): TreeCounts {
  const kinds = (k: string) => tree.nodes.filter((n) => n.kind === k).length;
  return {
    documents: kinds('document'),
    folders: kinds('folder'),
    sections: kinds('section'),
    cards: kinds('card'),
    links: tree.links.length,
    broken: tree.broken.length,
    skipped: skipped + tree.skipped.length,
  };
}

/** A document the last build stored: from this process's memo (parsed) or the database (its JSON). */
type StoredDoc = { blob: string; item: string | null; doc: ParsedDocument | null; json: string | null };

/**
 * What the last build in this process wrote, by database and source ([T4] in docs/TREES.md): the
 * next build of the same source compares with it instead of reading every stored node, link and
 * parsed document again, which is what keeps a host's one-file build short. It stands only while
 * the source is at the build that made it (the same `built_at`): a build by another process, a
 * disconnect or a write that failed leaves it unused, and the database is read as before.
 */
type BuildMemo = {
  builtAt: string;
  /** The workspace and user it was made under: joining a server re-keys the items it names. */
  owner: string;
  docs: Map<string, StoredDoc>;
  /** Each node's column values, and each node's links as flat (to, kind, line) triples. */
  nodes: Map<string, unknown[]>;
  links: Map<string, unknown[]>;
};

/** Whether two rows of values are the same, value by value. */
function sameValues(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
const memos = new WeakMap<Db, Map<string, BuildMemo>>();

function memoOf(db: Db, sourceId: string, owner: string): BuildMemo | null {
  const memo = memos.get(db)?.get(sourceId);
  if (!memo || memo.owner !== owner) return null;
  const row = stmt(db, 'SELECT built_at FROM tree_sources WHERE id = ?').get(sourceId) as
    | { built_at: string | null }
    | undefined;
  return row?.built_at === memo.builtAt ? memo : null;
}

function keepMemo(db: Db, sourceId: string, memo: BuildMemo): void {
  let bySource = memos.get(db);
  if (!bySource) {
    bySource = new Map();
    memos.set(db, bySource);
  }
  bySource.set(sourceId, memo);
}

/** The documents the last build stored: the memo's, else read from the database. */
function storedDocs(db: Db, sourceId: string, memo: BuildMemo | null): Map<string, StoredDoc> {
  if (memo) return memo.docs;
  const rows = stmt(
    db,
    `SELECT d.path, d.blob, d.parsed, n.item_id AS item FROM tree_docs d
     LEFT JOIN tree_nodes n ON n.source_id = d.source_id AND n.id = d.path WHERE d.source_id = ?`,
  ).all(sourceId) as { path: string; blob: string; parsed: string; item: string | null }[];
  return new Map(rows.map((r) => [r.path, { blob: r.blob, item: r.item, doc: null, json: r.parsed }]));
}

/** The columns of a node row, in order, as one build writes them (compared to write only what differs). */
function nodeValues(n: BuiltTree['nodes'][number], file: { blob: string; item: string | null } | undefined) {
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

/**
 * Writes the tree of one build in one transaction, touching only the rows that differ from the
 * stored tree (a one-file change writes a few rows); the result is the same rows a whole write
 * makes. It checks the source is still at the commit the build started from.
 */
function writeTree(
  db: Db,
  source: TreeSource,
  build: {
    commit: string;
    tree: BuiltTree;
    files: Map<string, { blob: string; item: string | null }>;
    /** The documents this build parsed (all of them in a whole build), to store for the next one. */
    parsed: Map<string, { blob: string; json: string; doc: ParsedDocument }>;
    /** Every document of the tree, parsed now or taken as stored. */
    docs: Map<string, StoredDoc>;
    /** What the last build stored, when this process still knows it. */
    memo: BuildMemo | null;
    owner: string;
    whole: boolean;
    skipped: number;
    /** The record replicas build the tree from (a tree built here), made inside the transaction. */
    record: (() => string) | null;
  },
): void {
  const { tree, files, parsed, memo } = build;
  const nodeRows = new Map<string, unknown[]>();
  let linkRows = new Map<string, unknown[]>();
  let at = '';
  writeTx(db, () => {
    const now = stmt(db, 'SELECT indexed_commit FROM tree_sources WHERE id = ?').get(source.id) as
      | { indexed_commit: string | null }
      | undefined;
    if (!now) throw new AppError('not-found', `${source.root} was disconnected during its build.`);
    if (now.indexed_commit !== source.indexedCommit)
      throw new AppError('conflict', `${source.root} was built by another process meanwhile: build again.`);
    // Nodes: compare each with the stored row, value by value.
    const stored =
      memo?.nodes ??
      new Map(
        (
          stmt(db, `SELECT id, ${NODE_COLUMNS.join(', ')} FROM tree_nodes WHERE source_id = ?`).all(
            source.id,
          ) as Record<string, unknown>[]
        ).map((r) => [String(r.id), NODE_COLUMNS.map((c) => r[c])]),
      );
    const upsert = stmt(
      db,
      `INSERT OR REPLACE INTO tree_nodes (source_id, id, ${NODE_COLUMNS.join(', ')})
       VALUES (?, ?, ${NODE_COLUMNS.map(() => '?').join(', ')})`,
    );
    const keep = new Set<string>();
    for (const n of tree.nodes) {
      keep.add(n.id);
      const values = nodeValues(n, n.kind === 'document' ? files.get(n.path) : undefined);
      nodeRows.set(n.id, values);
      if (!sameValues(stored.get(n.id), values)) upsert.run(source.id, n.id, ...values);
    }
    const dropNode = stmt(db, 'DELETE FROM tree_nodes WHERE source_id = ? AND id = ?');
    for (const id of stored.keys()) if (!keep.has(id)) dropNode.run(source.id, id);
    // Links and broken links: rewritten for the nodes whose list differs.
    const links = new Map<string, unknown[]>();
    for (const l of tree.links) {
      const list = links.get(l.from);
      if (list) list.push(l.to, l.kind, l.line);
      else links.set(l.from, [l.to, l.kind, l.line]);
    }
    const storedLinks = memo?.links ?? new Map<string, unknown[]>();
    if (!memo)
      for (const r of stmt(
        db,
        'SELECT from_id, ordinal, to_id, kind, line FROM tree_links WHERE source_id = ? ORDER BY from_id, ordinal',
      ).all(source.id) as { from_id: string; to_id: string; kind: string; line: number }[]) {
        const list = storedLinks.get(r.from_id);
        if (list) list.push(r.to_id, r.kind, r.line);
        else storedLinks.set(r.from_id, [r.to_id, r.kind, r.line]);
      }
    const dropLinks = stmt(db, 'DELETE FROM tree_links WHERE source_id = ? AND from_id = ?');
    const addLink = stmt(
      db,
      'INSERT INTO tree_links (source_id, from_id, ordinal, to_id, kind, line) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const [from, list] of links) {
      if (sameValues(storedLinks.get(from), list)) continue;
      dropLinks.run(source.id, from);
      for (let i = 0; i < list.length; i += 3)
        addLink.run(source.id, from, i / 3, list[i], list[i + 1], list[i + 2]);
    }
    for (const from of storedLinks.keys()) if (!links.has(from)) dropLinks.run(source.id, from);
    linkRows = links;
    stmt(db, 'DELETE FROM tree_broken WHERE source_id = ?').run(source.id);
    const broken = stmt(
      db,
      'INSERT INTO tree_broken (source_id, ordinal, from_id, target) VALUES (?, ?, ?, ?)',
    );
    for (const [i, b] of tree.broken.entries()) broken.run(source.id, i, b.from, b.target);
    // The parsed documents, for the next incremental build: those parsed now (new bytes, or the
    // same bytes with another last change), and none the tree no longer has.
    const before =
      memo?.docs ??
      new Map(
        (
          stmt(db, 'SELECT path, blob FROM tree_docs WHERE source_id = ?').all(source.id) as {
            path: string;
          }[]
        ).map((r) => [r.path, null]),
      );
    const putDoc = stmt(
      db,
      'INSERT OR REPLACE INTO tree_docs (source_id, path, blob, parsed) VALUES (?, ?, ?, ?)',
    );
    for (const [path, d] of parsed) putDoc.run(source.id, path, d.blob, d.json);
    const dropDoc = stmt(db, 'DELETE FROM tree_docs WHERE source_id = ? AND path = ?');
    for (const path of before.keys()) if (!build.docs.has(path)) dropDoc.run(source.id, path);
    at = new Date().toISOString();
    setState(db, source.id, {
      state: 'ready',
      indexed_commit: build.commit,
      attempted_commit: build.commit,
      counts: JSON.stringify(countsOf(tree, build.skipped)),
      error: null,
      builder_version: BUILDER_VERSION,
      built_at: at,
      ...(build.whole ? { whole_built_at: at, incremental_builds: 0 } : {}),
    });
    if (!build.whole)
      stmt(db, 'UPDATE tree_sources SET incremental_builds = incremental_builds + 1 WHERE id = ?').run(
        source.id,
      );
    if (build.record) {
      const text = build.record();
      stmt(
        db,
        `UPDATE tree_sources SET record = ?, updated_at = ?, version = version + 1
         WHERE id = ? AND record IS NOT ?`,
      ).run(text, at, source.id, text);
    }
  });
  keepMemo(db, source.id, {
    builtAt: at,
    owner: build.owner,
    docs: build.docs,
    nodes: nodeRows,
    links: linkRows,
  });
}

type SourceBuildRow = { builder_version: number; whole_built_at: string | null; incremental_builds: number };

/** When at most this many documents changed (and at most a fifth of them), a build can be incremental. */
const INCREMENTAL_MAX_CHANGED = 2000;
const INCREMENTAL_MAX_BUILDS = 50;
const WHOLE_BUILD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether this build may reuse the stored parsed documents ([T4] in docs/TREES.md): a tree of
 * this builder from a whole build less than a day and fewer than 50 incremental builds ago, at a
 * commit that is an ancestor of the new one, with at most 2,000 (and a fifth of the) documents
 * changed; never a Rebuild. Either way the stored rows are the same.
 */
async function incrementalAllowed(
  db: Db,
  source: TreeSource,
  commit: string,
  changedDocs: number,
  docs: number,
  rebuild: boolean,
): Promise<boolean> {
  if (rebuild || !source.indexedCommit) return false;
  const row = stmt(
    db,
    'SELECT builder_version, whole_built_at, incremental_builds FROM tree_sources WHERE id = ?',
  ).get(source.id) as SourceBuildRow;
  if (row.builder_version !== BUILDER_VERSION || !row.whole_built_at) return false;
  if (row.incremental_builds >= INCREMENTAL_MAX_BUILDS) return false;
  if (Date.now() - Date.parse(row.whole_built_at) > WHOLE_BUILD_MAX_AGE_MS) return false;
  if (changedDocs > INCREMENTAL_MAX_CHANGED || changedDocs > docs / 5) return false;
  if (source.isGit && !source.remote && !(await isAncestor(source.root, source.indexedCommit, commit)))
    return false;
  return true;
}

/** What a build did: `waitingFor` when a received tree is still missing documents (nothing was built). */
export type BuildOutcome = {
  source: TreeSource;
  added: string[];
  whole: boolean;
  parsed: number;
  waitingFor?: number;
};

/** At most this many Markdown files the tree could not hold travel in its record ([T13]). */
const RECORD_OTHERS_MAX = 5000;

/**
 * The Markdown files the repository has but the tree does not hold for their size: a link to one
 * is not broken. The same list is what a replica receiving the tree assembles with ([T13]).
 */
function othersOf(listing: Listing, skipped: readonly { path: string; reason: string }[]): string[] {
  if (listing.shared) return listing.shared.others;
  return skipped
    .filter((x) => x.reason === SKIP_TOO_LARGE)
    .map((x) => x.path)
    .sort()
    .slice(0, RECORD_OTHERS_MAX);
}

/**
 * Builds a source's tree now: lists its files, parses the documents that changed (all of them in
 * a whole build), stores each new or changed one as a file item of its scope with its repository
 * origin (the caller indexes `added`), retires the items of documents the repository no longer
 * has, assembles the tree, writes what differs and the record replicas build it from ([T13]). A
 * received tree is built from its creator's synced documents once they all arrived. A failure
 * sets `failed` with the reason and keeps the last good tree.
 */
export async function buildSource(
  engine: Engine,
  id: string,
  options: { rebuild?: boolean } = {},
): Promise<BuildOutcome> {
  const source = sourceOf(engine, id);
  if (source.state === 'off') throw new AppError('validation-failed', `${source.root} is turned off.`);
  let attempted: string | null = null;
  try {
    const listing = await listSource(engine, source);
    if (listing.waitingFor) {
      setState(engine.db, source.id, { state: 'queued', waiting_for: listing.waitingFor, error: null });
      return {
        source: sourceOf(engine, source.id),
        added: [],
        whole: false,
        parsed: 0,
        waitingFor: listing.waitingFor,
      };
    }
    setState(engine.db, source.id, { state: 'indexing', error: null, waiting_for: null });
    attempted = listing.commit;
    setState(engine.db, source.id, { attempted_commit: listing.commit });
    const skipped: { path: string; reason: string }[] = [];
    const indexed: Entry[] = [];
    for (const e of listing.entries) {
      const reason = indexablePath(e.path, e.size);
      if (reason === null) indexed.push(e);
      else if (/\.md$/i.test(e.path)) skipped.push({ path: e.path, reason });
    }
    const owner = `${engine.workspaceId}\0${engine.user}`;
    const memo = memoOf(engine.db, source.id, owner);
    const stored = storedDocs(engine.db, source.id, memo);
    const changedOf = (e: Entry) => listing.changes?.get(e.path) ?? null;
    // Each stored document is parsed from JSON once (none with the memo), and only when its bytes
    // are the same.
    const reused = new Map<string, ParsedDocument>();
    for (const e of indexed) {
      const d = stored.get(e.path);
      if (!d || d.blob !== e.blob) continue;
      const p = d.doc ?? (JSON.parse(d.json ?? 'null') as ParsedDocument);
      if (p.version === PARSED_VERSION && JSON.stringify(p.changed) === JSON.stringify(changedOf(e)))
        reused.set(e.path, p);
    }
    const fresh = indexed.filter((e) => !reused.has(e.path));
    const present = new Set(indexed.map((e) => e.path));
    const whole = !(await incrementalAllowed(
      engine.db,
      source,
      listing.commit,
      fresh.length + [...stored.keys()].filter((p) => !present.has(p)).length,
      indexed.length,
      options.rebuild === true,
    ));
    const toParse = whole ? indexed : fresh;
    const bytes = await listing.read(toParse);
    const parsed = new Map<string, { blob: string; json: string; doc: ParsedDocument }>();
    const treeDocs = new Map<string, StoredDoc>();
    const docs: ParsedDocument[] = [];
    const files = new Map<string, { blob: string; item: string | null }>();
    const result: AddResult = { added: [], unchanged: [], refused: [], scopeKept: [] };
    const reparse = new Set(toParse.map((e) => e.path));
    const anew = new Set<string>();
    for (const e of indexed) {
      if (!reparse.has(e.path)) {
        const p = reused.get(e.path) as ParsedDocument;
        docs.push(p);
        const item = stored.get(e.path)?.item ?? null;
        files.set(e.path, { blob: e.blob, item });
        treeDocs.set(e.path, { blob: e.blob, item, doc: p, json: null });
        continue;
      }
      const b = bytes.get(e.path) ?? Buffer.alloc(0);
      const p = parseDocument({ path: e.path, text: b.toString('utf8'), changed: changedOf(e) });
      docs.push(p);
      parsed.set(e.path, { blob: e.blob, json: JSON.stringify(p), doc: p });
      if (listing.shared) {
        // A received tree's documents are its creator's items already.
        const item = listing.shared.items.get(e.path) ?? null;
        files.set(e.path, { blob: e.blob, item });
        treeDocs.set(e.path, { blob: e.blob, item, doc: p, json: null });
        continue;
      }
      const [added, unchanged] = [result.added.length, result.unchanged.length];
      await addBytes(
        { db: engine.db, blobs: engine.blobs, workspaceId: engine.workspaceId, user: engine.user },
        {
          bytes: b,
          name: basename(e.path),
          path: `${basename(source.root)}/${e.path}`,
          sourceKey: `tree:${source.id}:${e.path}`,
          mtime: changedOf(e) ? new Date((changedOf(e) as Change).date) : new Date(),
          scope: source.scope,
          originSource: 'tree',
        },
        result,
      );
      // The one entry this document made: added anew, or unchanged (refused ones have no item).
      const entry =
        result.added.length > added
          ? result.added.at(-1)
          : result.unchanged.length > unchanged
            ? result.unchanged.at(-1)
            : undefined;
      if (entry && result.added.length > added) anew.add(e.path);
      files.set(e.path, { blob: e.blob, item: entry?.id ?? null });
      treeDocs.set(e.path, { blob: e.blob, item: entry?.id ?? null, doc: p, json: null });
    }
    // The creator's document items as replicas will see them: read once, for the retirements and the record.
    let shared: SharedDoc[] = [];
    if (!listing.shared) {
      markOrigins(engine, source, listing, { paths: toParse.map((e) => e.path), anew, changedOf, files });
      shared = retireRemoved(engine, source, present);
    }
    const others = othersOf(listing, skipped);
    const tree = assembleTree(docs, { otherPaths: others, rootTitle: listing.name });
    writeTree(engine.db, source, {
      commit: listing.commit,
      tree,
      files,
      parsed,
      docs: treeDocs,
      memo,
      owner,
      whole,
      skipped: skipped.length,
      record: listing.shared
        ? null
        : () => recordText(source, { commit: listing.commit, others, docs: shared }),
    });
    // The grep index follows the tree now, so the first grep after a build does not pay for it.
    refreshGrepIndex(engine, source.id);
    return {
      source: sourceOf(engine, source.id),
      added: result.added.map((a) => a.id),
      whole,
      parsed: toParse.length,
    };
  } catch (err) {
    // Another process built it meanwhile (writeTree's check): its tree and state stand.
    if (err instanceof AppError && err.code === 'conflict') throw err;
    setState(engine.db, source.id, {
      state: 'failed',
      error: err instanceof Error ? err.message : String(err),
      attempted_commit: attempted,
    });
    throw err;
  }
}

/**
 * Each document's item carries where it came from ([T13]): the tree, its path, a commit that holds
 * its bytes (the one it was stored at; kept while the bytes stay the same) and its last change.
 * Only the documents this build read are looked at; a locator is written only when it differs.
 */
function markOrigins(
  engine: Engine,
  source: TreeSource,
  listing: Listing,
  build: {
    paths: readonly string[];
    anew: ReadonlySet<string>;
    changedOf: (e: Entry) => Change | null;
    files: ReadonlyMap<string, { blob: string; item: string | null }>;
  },
): void {
  const read = stmt(engine.db, 'SELECT locator FROM items WHERE id = ?');
  const write = stmt(engine.db, 'UPDATE items SET locator = ?, updated_at = ? WHERE id = ?');
  const at = new Date().toISOString();
  writeTx(engine.db, () => {
    for (const path of build.paths) {
      const file = build.files.get(path);
      if (!file?.item) continue;
      const now = read.get(file.item) as { locator: string | null } | undefined;
      const prev = repoOriginOf(now?.locator ?? null);
      const commit = source.isGit
        ? !build.anew.has(path) && prev?.commit && prev.path === path
          ? prev.commit
          : listing.commit
        : null;
      const origin: RepoOrigin = {
        type: 'repo',
        tree: source.id,
        path,
        commit,
        changed: build.changedOf({ path, blob: file.blob, size: 0 }),
      };
      const text = repoOriginText(origin);
      if (now?.locator !== text) write.run(text, at, file.item);
    }
  });
}

/** The items of documents the repository no longer has are retired: search finds them no more. */
function retireRemoved(engine: Engine, source: TreeSource, present: ReadonlySet<string>): SharedDoc[] {
  const docs = sharedDocs(engine.db, engine.workspaceId, source.createdBy, source.id);
  const kept: SharedDoc[] = [];
  for (const d of docs) {
    if (present.has(d.path)) kept.push(d);
    else retireFile(engine.db, d.id);
  }
  return kept;
}

/** The record of a tree built here, as replicas receive it ([T13]). */
function recordText(
  source: TreeSource,
  build: { commit: string; others: string[]; docs: SharedDoc[] },
): string {
  const { docs } = build;
  const record: TreeRecord = {
    v: 1,
    tree: source.id,
    branch: source.branch,
    git: source.isGit,
    commit: build.commit,
    documents: docs.length,
    fingerprint: fingerprintOf(docs),
    others: build.others,
  };
  return JSON.stringify(record);
}

/** The source's tip now (the branch's commit, or the folder's fingerprint): has it moved since the indexed one? */
export async function tipOf(engine: Engine, source: TreeSource): Promise<string | null> {
  if (source.remote) {
    const listing = listShared(engine, source);
    return listing.waitingFor ? null : listing.commit;
  }
  if (source.isGit) return resolveCommit(source.root, source.branch);
  return (await listSource(engine, source)).commit;
}
