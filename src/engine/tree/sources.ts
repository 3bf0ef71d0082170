/**
 * Connected repositories (docs/TREES.md): connecting one, its state, turning it off, and the
 * build that turns the documents of its commit into the stored tree. A build reads the documents
 * (from Git at the branch's commit, or from disk for a plain folder), stores each as an ordinary
 * file item of the workspace (so search and chat find and cite them), builds the tree and writes
 * it in one transaction. A failed build keeps the last good tree readable and is not retried on
 * the same commit.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AppError } from '#shared/errors.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { assertCanWrite, canSee, parseScope } from '../scope.ts';
import { type Assembly, assemble, brokenLinksOf, treeOf } from './assemble.ts';
import { retireDocuments, retireRemoved, storeDocuments } from './documents.ts';
import { branchCommit, branchProblem, currentBranch, foreignGitDir, gitTopLevel, isAncestor } from './git.ts';
import { refreshGrepIndex } from './grep-index.ts';
import { indexablePath, PARSED_VERSION, type ParsedDocument } from './index.ts';
import { type Listing, listShared, listSource } from './listing.ts';
import {
  type BuildMemo,
  dropMemo,
  type Entry,
  keepMemo,
  type StoredDoc,
  storedDocs,
  takeMemo,
} from './memo.ts';
import { SKIP_TOO_LARGE } from './paths.ts';
import { reassemble } from './reassemble.ts';
import { fingerprintOf, recordItemId, type SharedDoc, sharedDocsAt, type TreeRecord } from './share.ts';
import type { Change } from './types.ts';
import { linksByNode, type TreeWrite, writeTree } from './write.ts';

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

/** A Markdown file of the repository the tree does not hold, and why ([T2] in docs/TREES.md). */
type LeftOut = { path: string; reason: string };
/** How many of the files left out a source names (by path); `counts.skipped` counts them all. */
const LEFT_OUT_NAMED = 20;

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
  /** The first LEFT_OUT_NAMED Markdown files left out of the tree, by path. */
  leftOut: LeftOut[];
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
  // The stored counts hold the names of the files left out beside the numbers (countsOf).
  const { leftOut, ...counts } = JSON.parse(r.counts) as Partial<TreeCounts> & { leftOut?: LeftOut[] };
  return {
    id: r.id,
    root: r.root,
    branch: r.branch,
    isGit: r.is_git === 1,
    scope: r.scope,
    state: r.state,
    indexedCommit: r.indexed_commit,
    attemptedCommit: r.attempted_commit,
    counts: { ...EMPTY_COUNTS, ...counts },
    leftOut: leftOut ?? [],
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
  const foreign = top ? await foreignGitDir(folder, top) : null;
  if (foreign) throw new AppError('refused', `${foreign}.`);
  const root = top ?? folder;
  const branch = top ? (input.branch ?? (await currentBranch(root))) : null;
  if (!top && input.branch)
    throw new AppError(
      'validation-failed',
      `${folder} is not a Git repository: it has no branch ${input.branch}.`,
    );
  const notBranch = top && input.branch ? await branchProblem(root, input.branch) : null;
  if (notBranch) throw new AppError('validation-failed', `${notBranch}.`);
  if (top && !(await branchCommit(root, branch)))
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
  dropMemo(engine.db, source.id);
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

function countsOf(a: Assembly, skipped: ReadonlyMap<string, string>): TreeCounts & { leftOut: LeftOut[] } {
  const counts = { ...EMPTY_COUNTS };
  for (const n of a.nodes.values()) {
    if (n.kind === 'document') counts.documents++;
    else if (n.kind === 'folder') counts.folders++;
    else if (n.kind === 'section') counts.sections++;
    else if (n.kind === 'card') counts.cards++;
  }
  for (const d of a.links.values()) for (const list of d.outgoing.values()) counts.links += list.length;
  counts.broken = brokenLinksOf(a).length;
  counts.skipped = skipped.size + a.skipped.length;
  const leftOut = [...[...skipped].map(([path, reason]) => ({ path, reason })), ...a.skipped]
    .sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
    .slice(0, LEFT_OUT_NAMED);
  return { ...counts, leftOut };
}

type SourceBuildRow = { builder_version: number; whole_built_at: string | null; incremental_builds: number };

/** When at most this many documents changed (and at most a fifth of them), a build can be incremental. */
const INCREMENTAL_MAX_CHANGED = 2000;
const INCREMENTAL_MAX_BUILDS = 50;
const WHOLE_BUILD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether this build may reuse the stored parsed documents ([T4] in docs/TREES.md): a tree of
 * this builder from a whole build less than a day and fewer than 50 incremental builds ago, at a
 * commit that is an ancestor of the new one (`knownAncestor`: the listing proved it, [T15]), with
 * at most 2,000 (and a fifth of the) documents changed; never a Rebuild. Either way the stored
 * rows are the same.
 */
async function incrementalAllowed(
  db: Db,
  source: TreeSource,
  build: { commit: string; changedDocs: number; docs: number; rebuild: boolean; knownAncestor: boolean },
): Promise<boolean> {
  if (build.rebuild || !source.indexedCommit) return false;
  const row = stmt(
    db,
    'SELECT builder_version, whole_built_at, incremental_builds FROM tree_sources WHERE id = ?',
  ).get(source.id) as SourceBuildRow;
  if (row.builder_version !== BUILDER_VERSION || !row.whole_built_at) return false;
  if (row.incremental_builds >= INCREMENTAL_MAX_BUILDS) return false;
  if (Date.now() - Date.parse(row.whole_built_at) > WHOLE_BUILD_MAX_AGE_MS) return false;
  if (build.changedDocs > INCREMENTAL_MAX_CHANGED || build.changedDocs > build.docs / 5) return false;
  if (
    source.isGit &&
    !source.remote &&
    !build.knownAncestor &&
    !(await isAncestor(source.root, source.indexedCommit, build.commit))
  )
    return false;
  return true;
}

/** What a build did: `waitingFor` when a received tree is still missing documents (nothing was built). */
export type BuildOutcome = {
  source: TreeSource;
  added: string[];
  whole: boolean;
  /** Incremental from the memo of the last build in this process ([T14], [T15]), not from the database. */
  fromMemo: boolean;
  parsed: number;
  waitingFor?: number;
};

/** At most this many Markdown files the tree could not hold travel in its record ([T13]). */
const RECORD_OTHERS_MAX = 5000;

/**
 * The Markdown files the repository has but the tree does not hold for their size: a link to one
 * is not broken. The same list is what a replica receiving the tree assembles with ([T13]).
 */
function othersOf(listing: Listing, skipped: ReadonlyMap<string, string>): string[] {
  if (listing.shared) return listing.shared.others;
  const out: string[] = [];
  for (const [path, reason] of skipped) if (reason === SKIP_TOO_LARGE) out.push(path);
  return out.sort().slice(0, RECORD_OTHERS_MAX);
}

/** Whether two last changes are the same. */
function sameChange(a: Change | null, b: Change | null): boolean {
  if (!a || !b) return a === b;
  return a.commit === b.commit && a.date === b.date && a.subject === b.subject;
}

/**
 * Builds a source's tree now: lists its files, parses the documents that changed (all of them in
 * a whole build), stores each new or changed one as a file item of its scope with its repository
 * origin (the caller indexes `added`), retires the items of documents the repository no longer
 * has, assembles the tree, writes what differs and the record replicas build it from ([T13]). A
 * received tree is built from its creator's synced documents once they all arrived. A failure
 * sets `failed` with the reason and keeps the last good tree.
 */
export function buildSource(
  engine: Engine,
  id: string,
  options: { rebuild?: boolean } = {},
): Promise<BuildOutcome> {
  // One build of a source at a time in a process: a command that asks while the host's watcher
  // builds it (or the other way round) gets that very build, not a second one whose later write
  // would change the tree under the first one's answer. A rebuild waits for it, then runs.
  let running = building.get(engine);
  if (!running) {
    running = new Map();
    building.set(engine, running);
  }
  const current = running.get(id);
  if (current && !options.rebuild) return current;
  const build = (current ? current.catch(() => undefined) : Promise.resolve()).then(() =>
    buildOnce(engine, id, options),
  );
  const map = running;
  const done = () => {
    if (map.get(id) === build) map.delete(id);
  };
  running.set(id, build);
  build.then(done, done);
  return build;
}

const building = new WeakMap<Engine, Map<string, Promise<BuildOutcome>>>();

async function buildOnce(engine: Engine, id: string, options: { rebuild?: boolean }): Promise<BuildOutcome> {
  const source = sourceOf(engine, id);
  if (source.state === 'off') throw new AppError('validation-failed', `${source.root} is turned off.`);
  let attempted: string | null = null;
  const owner = `${engine.workspaceId}\0${engine.user}`;
  // Taken out while this build runs: it is changed in place, and kept again only once written.
  const memo = takeMemo(engine.db, source.id, owner);
  try {
    let listing = await listSource(engine, source, options.rebuild ? null : memo);
    if (listing.waitingFor) {
      // Nothing is built: the last build's memo stands as it was.
      if (memo) keepMemo(engine.db, source.id, memo);
      setState(engine.db, source.id, { state: 'queued', waiting_for: listing.waitingFor, error: null });
      return {
        source: sourceOf(engine, source.id),
        added: [],
        whole: false,
        fromMemo: false,
        parsed: 0,
        waitingFor: listing.waitingFor,
      };
    }
    attempted = listing.commit;
    setState(engine.db, source.id, {
      state: 'indexing',
      error: null,
      waiting_for: null,
      attempted_commit: listing.commit,
    });
    if (memo && listing.changed) {
      const outcome = await buildFromMemo(engine, source, listing, memo);
      if (outcome) return outcome;
      // Not incremental after all: the whole commit is listed (the memo's rows are still the stored ones).
      listing = await listSource(engine, source, null);
    }
    return await buildListed(engine, source, listing, memo, options.rebuild === true);
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

/** The source's row once a build is written. */
function readyState(commit: string, counts: TreeCounts, whole: boolean) {
  return (at: string): Record<string, unknown> => ({
    state: 'ready',
    indexed_commit: commit,
    attempted_commit: commit,
    counts: JSON.stringify(counts),
    error: null,
    builder_version: BUILDER_VERSION,
    built_at: at,
    ...(whole ? { whole_built_at: at, incremental_builds: 0 } : {}),
  });
}

/**
 * A build from a whole listing: whole, or incremental from the stored parsed documents (the
 * memo's, else the database's), assembling the whole tree and comparing every row.
 */
async function buildListed(
  engine: Engine,
  source: TreeSource,
  listing: Listing,
  memo: BuildMemo | null,
  rebuild: boolean,
): Promise<BuildOutcome> {
  const skipped = new Map<string, string>();
  const indexed: Entry[] = [];
  for (const e of listing.entries) {
    const reason = indexablePath(e.path, e.size);
    if (reason === null) indexed.push(e);
    else if (/\.md$/i.test(e.path)) skipped.set(e.path, reason);
  }
  const stored = storedDocs(engine.db, source.id, memo);
  const changedOf = (e: Entry) => listing.changes?.get(e.path) ?? null;
  // Each stored document is parsed from JSON once (none with the memo), and only when its bytes
  // are the same.
  const reused = new Map<string, ParsedDocument>();
  for (const e of indexed) {
    const d = stored.get(e.path);
    if (!d || d.blob !== e.blob) continue;
    const p = d.doc ?? (JSON.parse(d.json ?? 'null') as ParsedDocument);
    if (p.version === PARSED_VERSION && sameChange(p.changed, changedOf(e))) reused.set(e.path, p);
  }
  const fresh = indexed.filter((e) => !reused.has(e.path));
  const present = new Set(indexed.map((e) => e.path));
  const whole = !(await incrementalAllowed(engine.db, source, {
    commit: listing.commit,
    changedDocs: fresh.length + [...stored.keys()].filter((p) => !present.has(p)).length,
    docs: indexed.length,
    rebuild,
    knownAncestor: false,
  }));
  const toParse = whole ? indexed : fresh;
  const done = await storeDocuments(engine, source, listing, toParse);
  // Binary bytes under a .md name are left out like the paths above ([T5]).
  for (const [path, reason] of done.leftOut) {
    skipped.set(path, reason);
    present.delete(path);
  }
  const docs = new Map<string, StoredDoc>();
  for (const e of indexed) {
    if (done.leftOut.has(e.path)) continue;
    const now = done.parsed.get(e.path);
    const item = now ? (done.items.get(e.path) ?? null) : (stored.get(e.path)?.item ?? null);
    docs.set(e.path, {
      blob: e.blob,
      item,
      doc: now?.doc ?? (reused.get(e.path) as ParsedDocument),
      json: null,
    });
  }
  // The creator's document items as replicas will see them: read once, for the retirements and the record.
  const shared = listing.shared ? null : retireRemoved(engine, source, present);
  const others = othersOf(listing, skipped);
  const assembly = assemble(
    [...docs.values()].map((d) => d.doc as ParsedDocument),
    { otherPaths: others, rootTitle: listing.name },
  );
  const tree = treeOf(assembly);
  const written = writeTree(engine, {
    sourceId: source.id,
    root: source.root,
    indexedBefore: source.indexedCommit,
    nodes: tree.nodes,
    goneNodes: null,
    links: linksByNode(tree.links),
    linksComplete: true,
    broken: tree.broken,
    fileOf: (path) => docs.get(path),
    parsed: done.parsed,
    goneDocs: [...stored.keys()].filter((p) => !docs.has(p)),
    stored: memo ? { rows: memo.rows, broken: memo.broken } : null,
    state: readyState(listing.commit, countsOf(assembly, skipped), whole),
    whole,
    record: shared ? () => recordText(source, { commit: listing.commit, others, docs: shared }) : null,
  });
  keepMemo(engine.db, source.id, {
    builtAt: written.at,
    owner: `${engine.workspaceId}\0${engine.user}`,
    commit: listing.commit,
    docs,
    rows: written.rows,
    broken: written.broken,
    assembly,
    skipped,
    git: listing.git?.history ? { files: listing.git.files, history: listing.git.history } : null,
    shared: shared ? new Map(shared.map((d) => [d.path, d])) : null,
  });
  // The grep index follows the tree now, so the first grep after a build does not pay for it.
  refreshGrepIndex(engine, source.id);
  return {
    source: sourceOf(engine, source.id),
    added: done.added,
    whole,
    fromMemo: false,
    parsed: toParse.length,
  };
}

/** What changed since the memo's build: documents to parse, documents gone, Markdown files left out (or no more). */
type MemoPlan = {
  toParse: Entry[];
  gone: string[];
  skipped: Map<string, string | null>;
  /** How many documents the tree will hold. */
  docs: number;
};

/** Looks only at the paths the listing says may differ from the memo ([T15]); changes nothing. */
function planFromMemo(listing: Listing, files: ReadonlyMap<string, Entry>, memo: BuildMemo): MemoPlan {
  const plan: MemoPlan = { toParse: [], gone: [], skipped: new Map(), docs: memo.docs.size };
  for (const path of listing.changed ?? []) {
    const e = files.get(path);
    const reason = e ? indexablePath(path, e.size) : null;
    const isMarkdown = /\.md$/i.test(path);
    if (e && reason === null) {
      if (isMarkdown) plan.skipped.set(path, null);
      const d = memo.docs.get(path);
      if (!d) plan.docs++;
      else if (d.blob === e.blob && d.doc && sameChange(d.doc.changed, listing.changes?.get(path) ?? null))
        continue;
      plan.toParse.push(e);
    } else {
      if (isMarkdown) plan.skipped.set(path, e ? reason : null);
      if (memo.docs.has(path)) {
        plan.gone.push(path);
        plan.docs--;
      }
    }
  }
  return plan;
}

/**
 * An incremental build from the memo of the last build in this process ([T14], [T15]): only the
 * paths the listing says may differ are looked at, the memo's assembly is changed by the
 * documents that did, and only the rows it names are compared. Null, with nothing done, when the
 * build may not be incremental (the caller builds whole).
 */
async function buildFromMemo(
  engine: Engine,
  source: TreeSource,
  listing: Listing,
  memo: BuildMemo,
): Promise<BuildOutcome | null> {
  const files = listing.git?.files;
  if (!files || !listing.changed) return null;
  const { toParse, gone, skipped: skippedNow, docs } = planFromMemo(listing, files, memo);
  const allowed = await incrementalAllowed(engine.db, source, {
    commit: listing.commit,
    changedDocs: toParse.length + gone.length,
    docs,
    rebuild: false,
    knownAncestor: true,
  });
  if (!allowed) return null;
  for (const [path, reason] of skippedNow) {
    if (reason === null) memo.skipped.delete(path);
    else memo.skipped.set(path, reason);
  }
  const done = await storeDocuments(engine, source, listing, toParse);
  // Binary bytes under a .md name are left out ([T5]): a document that held text before is gone.
  for (const [path, reason] of done.leftOut) {
    memo.skipped.set(path, reason);
    if (memo.docs.has(path)) gone.push(path);
  }
  const changes = new Map<string, ParsedDocument | null>();
  for (const e of toParse) {
    if (done.leftOut.has(e.path)) continue;
    const doc = (done.parsed.get(e.path) as { doc: ParsedDocument }).doc;
    changes.set(e.path, doc);
    memo.docs.set(e.path, { blob: e.blob, item: done.items.get(e.path) ?? null, doc, json: null });
  }
  for (const path of gone) {
    changes.set(path, null);
    memo.docs.delete(path);
  }
  if (memo.shared)
    updateShared(
      engine,
      source,
      memo.shared,
      toParse.filter((e) => !done.leftOut.has(e.path)),
      gone,
    );
  const others = othersOf(listing, memo.skipped);
  const rows = changedRows(memo, changes, { otherPaths: others, rootTitle: listing.name });
  const shared = memo.shared;
  const written = writeTree(engine, {
    sourceId: source.id,
    root: source.root,
    indexedBefore: source.indexedCommit,
    ...rows,
    fileOf: (path) => memo.docs.get(path),
    parsed: done.parsed,
    goneDocs: gone,
    stored: { rows: memo.rows, broken: memo.broken },
    state: readyState(listing.commit, countsOf(memo.assembly, memo.skipped), false),
    whole: false,
    record: shared
      ? () => recordText(source, { commit: listing.commit, others, docs: [...shared.values()] })
      : null,
  });
  memo.builtAt = written.at;
  memo.commit = listing.commit;
  memo.rows = written.rows;
  memo.broken = written.broken;
  memo.git = listing.git?.history ? { files, history: listing.git.history } : null;
  keepMemo(engine.db, source.id, memo);
  refreshGrepIndex(engine, source.id);
  return {
    source: sourceOf(engine, source.id),
    added: done.added,
    whole: false,
    fromMemo: true,
    parsed: toParse.length,
  };
}

/**
 * The memo's assembly changed by some documents, and the rows that may differ ([T14]); an
 * assembly the change cannot be made to (the document cap) is made whole, and every row compared.
 */
function changedRows(
  memo: BuildMemo,
  changes: ReadonlyMap<string, ParsedDocument | null>,
  options: { otherPaths: string[]; rootTitle: string },
): Pick<TreeWrite, 'nodes' | 'goneNodes' | 'links' | 'linksComplete' | 'broken'> {
  const delta = reassemble(memo.assembly, { docs: changes, ...options });
  if (delta) return { ...delta, linksComplete: false };
  memo.assembly = assemble(
    [...memo.docs.values()].map((d) => d.doc as ParsedDocument),
    options,
  );
  const tree = treeOf(memo.assembly);
  return {
    nodes: tree.nodes,
    goneNodes: null,
    links: linksByNode(tree.links),
    linksComplete: true,
    broken: tree.broken,
  };
}

/**
 * The creator's document items after an incremental build: those of documents gone are retired,
 * those stored now read again; the others are as the last build listed them.
 */
function updateShared(
  engine: Engine,
  source: TreeSource,
  shared: Map<string, SharedDoc>,
  stored: readonly Entry[],
  gone: readonly string[],
): void {
  retireDocuments(
    engine,
    gone.flatMap((path) => shared.get(path) ?? []),
  );
  for (const path of gone) shared.delete(path);
  for (const e of stored) shared.delete(e.path);
  const now = sharedDocsAt(
    engine.db,
    engine.workspaceId,
    source.createdBy,
    source.id,
    stored.map((e) => e.path),
  );
  for (const d of now) shared.set(d.path, d);
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
  if (source.isGit) return branchCommit(source.root, source.branch);
  return (await listSource(engine, source, null)).commit;
}
