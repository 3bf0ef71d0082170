/**
 * What a build reads a source from (docs/TREES.md [T1], [T2], [T13], [T15]): every file of the
 * branch's commit with the history's last changes (Git), the folder as it is now (a plain
 * folder), or the creator's synced documents (a received tree). A Git source whose last build in
 * this process left its memo is listed from that memo and what Git says changed since its commit,
 * when that gives what a whole listing would.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { AppError } from '#shared/errors.ts';
import { expandPaths } from '../add/add-read.ts';
import { stmt } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import {
  blobSizes,
  branchCommit,
  diffTree,
  foreignGitDir,
  type History,
  historySince,
  listFiles,
  readBlobs,
  readHistory,
} from './git.ts';
import type { BuildMemo, Entry } from './memo.ts';
import { couldIndex, indexablePath } from './paths.ts';
import { fingerprintOf, sharedDocs, type TreeRecord, TreeRecordSchema } from './share.ts';
import type { TreeSource } from './sources.ts';
import type { Change } from './types.ts';

export type Listing = {
  commit: string;
  entries: Entry[];
  changes: Map<string, Change> | null;
  /** The bytes of some entries, by path. */
  read(entries: readonly Entry[]): Promise<Map<string, Buffer>>;
  /** A local Git source: the history the last changes come from, and every file by path. */
  git?: { files: Map<string, Entry>; history: History | null };
  /** Listed from the memo of the last build: the paths whose file or last change may differ from it. */
  changed?: Set<string>;
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
export function listShared(engine: Engine, source: TreeSource): Listing {
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

function gitReader(root: string): Listing['read'] {
  return async (wanted) => {
    const blobs = await readBlobs(
      root,
      wanted.map((e) => e.blob),
    );
    return new Map(wanted.map((e) => [e.path, blobs.get(e.blob) ?? Buffer.alloc(0)]));
  };
}

/**
 * A Git source listed from the memo of its last build ([T15]): the files that differ between its
 * commit and the new one (`git diff-tree`), their sizes, and the history from the memo's walk and
 * the commits since. The memo's files are changed in place (the build owns the memo). Null when
 * the history does not line up with the memo's (the caller lists the whole commit).
 */
async function listFromMemo(source: TreeSource, memo: BuildMemo, commit: string): Promise<Listing | null> {
  if (!memo.git) return null;
  // Git refusing either (the memo's commit gone after a forced push, say) lists the whole commit.
  const [diff, since] = await Promise.all([
    diffTree(source.root, memo.commit, commit).catch(() => null),
    historySince(source.root, memo.git.history, memo.commit, commit).catch(() => null),
  ]);
  if (!diff || !since) return null;
  // The documents the tree could hold are read now (their bytes give their size, and the build
  // parses them); the other files' sizes are asked for at the same time.
  const wanted = new Set<string>();
  const others = new Set<string>();
  for (const d of diff) if (d.blob) (couldIndex(d.path) ? wanted : others).add(d.blob);
  const [bytes, sizes] = await Promise.all([
    wanted.size > 0 ? readBlobs(source.root, [...wanted]) : new Map<string, Buffer>(),
    blobSizes(source.root, [...others]),
  ]);
  const files = memo.git.files;
  const changed = since.changed;
  for (const d of diff) {
    changed.add(d.path);
    if (!d.blob) files.delete(d.path);
    else
      files.set(d.path, {
        path: d.path,
        blob: d.blob,
        size: bytes.get(d.blob)?.length ?? sizes.get(d.blob) ?? 0,
      });
  }
  const read = gitReader(source.root);
  return {
    commit,
    entries: [...files.values()],
    changes: since.history.changes,
    git: { files, history: since.history },
    changed,
    name: basename(source.root),
    async read(entries) {
      const missing = entries.filter((e) => !bytes.has(e.blob));
      const more = missing.length > 0 ? await read(missing) : new Map<string, Buffer>();
      return new Map(entries.map((e) => [e.path, bytes.get(e.blob) ?? more.get(e.path) ?? Buffer.alloc(0)]));
    },
  };
}

/** Every file of the source's commit (Git) or of the folder as it is now, read lazily. */
export async function listSource(
  engine: Engine,
  source: TreeSource,
  memo: BuildMemo | null,
): Promise<Listing> {
  if (source.remote) return listShared(engine, source);
  if (source.isGit) {
    // A .git replaced since it was connected by one naming another repository is not read ([T1]).
    const foreign = await foreignGitDir(source.root, source.root);
    if (foreign) throw new AppError('refused', `${foreign}.`);
    const commit = await branchCommit(source.root, source.branch);
    if (!commit) throw new AppError('not-found', `${source.root} has no branch ${source.branch ?? 'HEAD'}.`);
    const fromMemo = memo ? await listFromMemo(source, memo, commit) : null;
    if (fromMemo) return fromMemo;
    const [entries, history] = await Promise.all([
      listFiles(source.root, commit),
      readHistory(source.root, commit),
    ]);
    return {
      commit,
      entries,
      name: basename(source.root),
      changes: history?.changes ?? null,
      git: { files: new Map(entries.map((e) => [e.path, e])), history },
      read: gitReader(source.root),
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
