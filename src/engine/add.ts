/**
 * ADD (DESIGN.md section 4): store the bytes, show the file. Formats are decided by content and
 * name, 100 MB cap, folders add their files, the same bytes under the same key add nothing, and
 * every refusal names the file and the reason. Adding never makes a file answerable.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MAX_FILE_BYTES } from '../shared/constants.ts';
import { AppError } from '../shared/errors.ts';
import type { FileFormat } from '../shared/types.ts';
import type { BlobStore } from './blobs.ts';
import { type Db, writeTx } from './db/driver.ts';
import { sameBytesNote } from './health.ts';
import { ownedItemId } from './ids.ts';
import { detectFormat } from './ingest/index.ts';
import { getRow } from './items.ts';

export type AddedFile = { id: string; label: string; path: string };
/** A file already here, in `scope`, that was added again asking for another scope: it stays where it is. */
export type ScopeKept = AddedFile & { scope: string; asked: string };
export type AddResult = {
  added: AddedFile[];
  unchanged: AddedFile[];
  refused: { path: string; reason: string }[];
  /** Set whenever a scope was asked for (absent for watched folders, which never ask). */
  scopeKept?: ScopeKept[];
};
export type AddContext = { db: Db; blobs: BlobStore; workspaceId: string; user: string };

export const KIND_OF_FORMAT: Record<FileFormat, string> = {
  md: 'markdown',
  txt: 'text',
  pdf: 'pdf',
  docx: 'word',
  xlsx: 'spreadsheet',
};

/** Expands folders into their files; hidden files and folders are skipped, as a file manager does. */
function expandPaths(paths: readonly string[], refused: AddResult['refused']): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    try {
      const st = lstatSync(abs).isSymbolicLink() ? statSync(abs) : lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) files.push(abs);
      else refused.push({ path: abs, reason: 'not a regular file' });
    } catch {
      refused.push({ path: abs, reason: 'no such file or folder' });
    }
  }
  return files;
}

/** `scopeAsked`: the person named the scope (`--scope`), so a file kept in another one is reported. */
export function addPaths(
  ctx: AddContext,
  paths: readonly string[],
  scope: string,
  scopeAsked = false,
): AddResult {
  const result: AddResult = { added: [], unchanged: [], refused: [], scopeKept: [] };
  for (const path of expandPaths(paths, result.refused)) {
    try {
      addOne(ctx, path, { scope, scopeAsked }, result);
    } catch (err) {
      // A busy workspace is not this file's fault: the command fails ([B2] in docs/WORKSPACE.md).
      if (err instanceof AppError && err.code === 'busy') throw err;
      result.refused.push({ path, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}

export function tooLargeReason(size: number): string {
  return `too large: ${(size / 1024 / 1024).toFixed(1)} MB (the limit is 100 MB)`;
}

function addOne(
  ctx: AddContext,
  path: string,
  scope: Pick<AddSource, 'scope' | 'scopeAsked'>,
  result: AddResult,
): void {
  const st = statSync(path);
  if (st.size > MAX_FILE_BYTES) {
    result.refused.push({ path, reason: tooLargeReason(st.size) });
    return;
  }
  const real = realpathSync(path);
  addBytes(
    ctx,
    {
      bytes: readFileSync(path),
      name: basename(path),
      path: real,
      sourceKey: `file:${real}`,
      mtime: st.mtime,
      ...scope,
    },
    result,
  );
}

/** Where added bytes came from: the source key anchors the item's identity (DESIGN.md section 3). */
export type AddSource = {
  bytes: Uint8Array;
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

/** Adds one file's bytes (from disk, an upload or a watched folder) under its source key. */
export function addBytes(ctx: AddContext, source: AddSource, result: AddResult): void {
  const { bytes, path, scope, sourceKey } = source;
  if (bytes.length > MAX_FILE_BYTES) {
    result.refused.push({ path, reason: tooLargeReason(bytes.length) });
    return;
  }
  const detected = detectFormat(bytes, source.name);
  if (!detected.ok) {
    result.refused.push({ path, reason: detected.reason });
    return;
  }
  const real = path;
  const st = { mtime: source.mtime };
  const id = ownedItemId(ctx.workspaceId, 'file', ctx.user, sourceKey);
  const label = source.name;
  const existing = getRow(ctx.db, id);
  const blob = ctx.blobs.put(bytes);
  const entry = { id, label, path: real };
  if (existing) noteScopeKept(source, existing.scope, entry, result);
  if (existing && existing.blob === blob && existing.retired_at === null) {
    result.unchanged.push(entry);
    return;
  }
  const now = new Date().toISOString();
  const sameBytes = sameBytesNote(ctx.db, { id, blob, scope: existing?.scope ?? scope });
  const health = JSON.stringify(detected.health.concat(sameBytes));
  writeTx(ctx.db, () => {
    if (existing) {
      // New bytes under the same key: a new version of the same item, answerable again once re-indexed.
      ctx.db
        .prepare(
          `UPDATE items SET blob = ?, size = ?, format = ?, kind = ?, label = ?, indexed = 0, index_error = NULL,
           health = ?, occurred_at = ?, retired_at = NULL, updated_at = ?, version = version + 1 WHERE id = ?`,
        )
        .run(
          blob,
          bytes.length,
          detected.format,
          KIND_OF_FORMAT[detected.format],
          label,
          health,
          st.mtime.toISOString(),
          now,
          id,
        );
      if (existing.indexed === 1 && existing.retired_at === null) {
        ctx.db
          .prepare("INSERT INTO items_fts (items_fts, rowid, label, body) VALUES ('delete', ?, ?, ?)")
          .run(existing.rowid, existing.label, existing.body);
      }
      return;
    }
    ctx.db
      .prepare(
        `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, canonical_type,
         canonical_value, blob, format, size, indexed, health, scope, origin_actor, origin_source, origin_at,
         occurred_at, created_at, updated_at)
         VALUES (?, ?, 'file', ?, ?, '', ?, 'path', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        ctx.workspaceId,
        KIND_OF_FORMAT[detected.format],
        label,
        sourceKey,
        real,
        blob,
        detected.format,
        bytes.length,
        health,
        scope,
        ctx.user,
        source.originSource ?? 'upload',
        now,
        st.mtime.toISOString(),
        now,
        now,
      );
  });
  result.added.push(entry);
}

/**
 * Re-adding never moves a file: a scope change shows the file to other people (and hides it from
 * some), so it is its own confirmed action, `brain move` (src/engine/move.ts, docs/SYNC_SPEC.md
 * [S24]). Asking for another scope here is answered, never silently ignored.
 */
function noteScopeKept(source: AddSource, current: string, entry: AddedFile, result: AddResult): void {
  if (!source.scopeAsked || current === source.scope) return;
  const kept = result.scopeKept ?? [];
  kept.push({ ...entry, scope: current, asked: source.scope });
  result.scopeKept = kept;
}
