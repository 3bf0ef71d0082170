/**
 * ADD ([A1] in docs/PRODUCT.md): store the bytes, show the file. Formats are decided by content and
 * name, 100 MB cap, folders add their files, the same bytes under the same key add nothing, and
 * every refusal names the file and the reason. Adding never makes a file answerable.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { FileFormat } from '#shared/types.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { ownedItemId } from '../ids.ts';
import { detectFormat } from '../ingest/index.ts';
import type { DetectResult } from '../ingest/types.ts';
import { erasedWith } from '../knowledge/erase.ts';
import { sameBytesNote } from '../knowledge/health.ts';
import { archiveVersion } from '../knowledge/versions.ts';
import { ftsDelete, getRow, type ItemRow } from '../read/items.ts';
import { expandPaths, type FoundFile, hashBytes, inOrder, readHashed, realpathOf } from './add-read.ts';
import type { BlobStore } from './blobs.ts';

type AddedFile = { id: string; label: string; path: string };
/** A file already here, in `scope`, that was added again asking for another scope: it stays where it is. */
type ScopeKept = AddedFile & { scope: string; asked: string };
export type AddResult = {
  added: AddedFile[];
  unchanged: AddedFile[];
  refused: { path: string; reason: string }[];
  /** Set whenever a scope was asked for (absent for watched folders, which never ask). */
  scopeKept?: ScopeKept[];
};
export type AddContext = { db: Db; blobs: BlobStore; workspaceId: string; user: string };
/** How far a drop has got: files handled (added, unchanged or refused) of the files its folders held. */
export type AddProgress = { done: number; total: number };
export type AddPathsOptions = {
  scope: string;
  /** The person named the scope (`--scope`), so a file kept in another one is reported. */
  scopeAsked?: boolean;
  /**
   * The source's own id (docs/FACTS.md [K16]): one file, keyed `external:<id>` rather than by its
   * path, so new bytes under the same id from anywhere are its next version.
   */
  externalId?: string;
  onProgress?: (progress: AddProgress) => void;
};

const KIND_OF_FORMAT: Record<FileFormat, string> = {
  md: 'markdown',
  txt: 'text',
  pdf: 'pdf',
  docx: 'word',
  xlsx: 'spreadsheet',
  csv: 'spreadsheet',
  html: 'html',
  pptx: 'presentation',
  image: 'image',
};

/**
 * Files read (and stored) ahead of the one being recorded: their reads and writes overlap in the
 * thread pool, their rows are still written in order. Adding 10,000 small files (bench/add.ts),
 * 64 measured faster than 16 or 128.
 */
const READ_AHEAD_FILES = 64;
/** Bigger files are read only at their turn: read-ahead holds at most 16 MB, and one big file. */
const READ_AHEAD_MAX_BYTES = 256 * 1024;

/**
 * Adds files and folders. Every read, hash and blob write is awaited (src/engine/add/add-read.ts), so
 * other requests are answered between files; each file's rows are still one short transaction,
 * written in the order the files were found, with nothing else in between (recordFile).
 */
export async function addPaths(
  ctx: AddContext,
  paths: readonly string[],
  options: AddPathsOptions,
): Promise<AddResult> {
  const result: AddResult = { added: [], unchanged: [], refused: [], scopeKept: [] };
  const scope = { scope: options.scope, scopeAsked: options.scopeAsked ?? false };
  const files = await expandPaths(paths, result.refused);
  const externalKey = externalSourceKey(options.externalId, paths, files);
  await inOrder(
    files.length,
    READ_AHEAD_FILES,
    (i) => stageFile(ctx, files[i] as FoundFile, scope, externalKey),
    async (staged, i) => {
      const path = (files[i] as FoundFile).path;
      try {
        settle(ctx, await unstage(staged), result);
      } catch (err) {
        // A busy workspace is not this file's fault: the command fails ([B2] in docs/WORKSPACE.md).
        if (err instanceof AppError && err.code === 'busy') throw err;
        result.refused.push({ path, reason: err instanceof Error ? err.message : String(err) });
      }
      options.onProgress?.({ done: i + 1, total: files.length });
    },
  );
  return result;
}

export function tooLargeReason(size: number): string {
  return `too large: ${(size / 1024 / 1024).toFixed(1)} MB (the limit is 100 MB)`;
}

type Refusal = { path: string; reason: string };
/** Bytes checked and in the blob store, their row not written yet. */
type Stored = { source: AddSource; detected: Detected; blob: string };
/** A file read ahead (or refused), or, for a big one, how to read it at its turn. */
type Staged = Stored | Refusal | (() => Promise<Stored | Refusal>);

/** The source key an external id gives, after checking it names one file (and nothing else). */
function externalSourceKey(
  externalId: string | undefined,
  paths: readonly string[],
  files: readonly FoundFile[],
): string | null {
  if (externalId === undefined) return null;
  const id = externalId.trim();
  if (!id) throw new AppError('validation-failed', 'An external id cannot be empty.');
  if (paths.length !== 1 || files.length > 1)
    throw new AppError(
      'validation-failed',
      `--external-id names one source: add one file with it (${paths.length === 1 ? `${paths[0]} holds ${files.length} files` : `${paths.length} paths were given`}).`,
    );
  return `external:${id}`;
}

async function stageFile(
  ctx: AddContext,
  file: FoundFile,
  scope: Pick<AddSource, 'scope' | 'scopeAsked'>,
  externalKey: string | null = null,
): Promise<Staged> {
  const { path } = file;
  const st = await stat(path);
  if (st.size > MAX_FILE_BYTES) return { path, reason: tooLargeReason(st.size) };
  const load = async () => {
    const real = file.real ?? (await realpathOf(path));
    const { bytes, sha256 } = await readHashed(path, st.size);
    const sourceKey = externalKey ?? `file:${real}`;
    return storeBytes(ctx, {
      bytes,
      sha256,
      name: basename(path),
      path: real,
      sourceKey,
      mtime: st.mtime,
      ...scope,
    });
  };
  return st.size <= READ_AHEAD_MAX_BYTES ? load() : load;
}

/** A staged file, read now if it was too big to read ahead; a failed read rejects here, at its turn. */
async function unstage(staged: PromiseSettledResult<Staged>): Promise<Stored | Refusal> {
  if (staged.status === 'rejected') throw staged.reason;
  return typeof staged.value === 'function' ? staged.value() : staged.value;
}

/** Where added bytes came from: the source key anchors the item's identity ([A2] in docs/PRODUCT.md). */
export type AddSource = {
  bytes: Uint8Array;
  /** sha256 of `bytes` when whoever read them hashed them on the way (readHashed). */
  sha256?: string;
  name: string;
  /** Shown to people and kept as the canonical value: a path on this device, or an upload's name. */
  path: string;
  sourceKey: string;
  mtime: Date;
  /** The scope of a new item. A file already here keeps its own: scopes change only by `brain move`. */
  scope: string;
  /** The person named `scope` (rather than a default or a watched folder's): report a kept scope. */
  scopeAsked?: boolean;
  originSource?: string;
};

type Detected = Extract<DetectResult, { ok: true }>;

/** Adds one file's bytes (from disk, an upload or a watched folder) under its source key. */
export async function addBytes(ctx: AddContext, source: AddSource, result: AddResult): Promise<void> {
  settle(ctx, await storeBytes(ctx, source), result);
}

/** Checks the size and the format, then stores the bytes: everything but the row. */
async function storeBytes(ctx: AddContext, source: AddSource): Promise<Stored | Refusal> {
  const { bytes, path } = source;
  if (bytes.length > MAX_FILE_BYTES) return { path, reason: tooLargeReason(bytes.length) };
  const detected = detectFormat(bytes, source.name);
  if (!detected.ok) return { path, reason: detected.reason };
  const blob = await ctx.blobs.putHashed(bytes, source.sha256 ?? (await hashBytes(bytes)));
  return { source, detected, blob };
}

/** Synchronous on purpose: the row is read and written with nothing else in between. */
function settle(ctx: AddContext, stored: Stored | Refusal, result: AddResult): void {
  if ('reason' in stored) result.refused.push(stored);
  else recordFile(ctx, stored, result);
}

function recordFile(ctx: AddContext, stored: Stored, result: AddResult): void {
  const { source, blob } = stored;
  const id = ownedItemId(ctx.workspaceId, 'file', ctx.user, source.sourceKey);
  const existing = getRow(ctx.db, id);
  const entry = { id, label: source.name, path: source.path };
  if (!existing && erasedWith(ctx.db, id, blob)) {
    result.refused.push({
      path: source.path,
      reason: `${source.name} was erased from this workspace: the same file is not added back (change it, or add it under another name)`,
    });
    return;
  }
  if (existing) noteScopeKept(source, existing.scope, entry, result);
  if (existing && existing.blob === blob && existing.retired_at === null) {
    result.unchanged.push(entry);
    return;
  }
  const sameBytes = sameBytesNote(ctx.db, { id, blob, scope: existing?.scope ?? source.scope });
  const health = JSON.stringify(stored.detected.health.concat(sameBytes));
  const row = { id, blob, detected: stored.detected, health };
  writeTx(ctx.db, () => (existing ? newVersion(ctx, source, row, existing) : insertFile(ctx, source, row)));
  result.added.push(entry);
}

type FileRow = { id: string; blob: string; detected: Detected; health: string };

/**
 * New bytes under the same key: the next version of the same item, answerable again once
 * re-indexed; the bytes it had are kept as its earlier version (docs/FACTS.md [K16]).
 */
function newVersion(ctx: AddContext, source: AddSource, row: FileRow, existing: ItemRow): void {
  const { format } = row.detected;
  const now = new Date().toISOString();
  if (existing.blob && existing.blob !== row.blob)
    archiveVersion(ctx.db, ctx.workspaceId, ctx.user, existing, now);
  stmt(
    ctx.db,
    `UPDATE items SET blob = ?, size = ?, format = ?, kind = ?, label = ?, canonical_value = ?, indexed = 0,
     index_error = NULL, health = ?, occurred_at = ?, retired_at = NULL, updated_at = ?, version = version + 1
     WHERE id = ?`,
  ).run(
    row.blob,
    source.bytes.length,
    format,
    KIND_OF_FORMAT[format],
    source.name,
    source.path,
    row.health,
    source.mtime.toISOString(),
    now,
    row.id,
  );
  if (existing.indexed === 1 && existing.retired_at === null) {
    ftsDelete(ctx.db, existing);
  }
}

function insertFile(ctx: AddContext, source: AddSource, row: FileRow): void {
  const { format } = row.detected;
  const now = new Date().toISOString();
  stmt(
    ctx.db,
    `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, canonical_type,
     canonical_value, blob, format, size, indexed, health, scope, origin_actor, origin_source, origin_at,
     occurred_at, created_at, updated_at)
     VALUES (?, ?, 'file', ?, ?, '', ?, 'path', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    ctx.workspaceId,
    KIND_OF_FORMAT[format],
    source.name,
    source.sourceKey,
    source.path,
    row.blob,
    format,
    source.bytes.length,
    row.health,
    source.scope,
    ctx.user,
    source.originSource ?? 'upload',
    now,
    source.mtime.toISOString(),
    now,
    now,
  );
}

/**
 * Re-adding never moves a file: a scope change shows the file to other people (and hides it from
 * some), so it is its own confirmed action, `brain move` (src/engine/add/move.ts, docs/SYNC_SPEC.md
 * [S24]). Asking for another scope here is answered, never silently ignored.
 */
function noteScopeKept(source: AddSource, current: string, entry: AddedFile, result: AddResult): void {
  if (!source.scopeAsked || current === source.scope) return;
  const kept = result.scopeKept ?? [];
  kept.push({ ...entry, scope: current, asked: source.scope });
  result.scopeKept = kept;
}
