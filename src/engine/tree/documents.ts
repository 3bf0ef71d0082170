/**
 * A build's documents as files of the workspace (docs/TREES.md [T3], [T13]): each document parsed
 * now is stored as an ordinary file item of the tree's scope (so search and chat find and cite
 * it), carries its repository origin in its locator, and the items of documents the repository no
 * longer has are retired. A received tree's documents are its creator's items already.
 */
import { basename } from 'node:path';
import { AppError } from '#shared/errors.ts';
import { type AddResult, addBytes } from '../add/add.ts';
import { stmt, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { detectEncoding } from '../ingest/text-decode.ts';
import { retireFile } from '../knowledge/retire.ts';
import type { Listing } from './listing.ts';
import type { Entry } from './memo.ts';
import { parseDocument } from './parse.ts';
import type { ParsedDocument } from './parsed.ts';
import { type RepoOrigin, repoOriginOf, repoOriginText, type SharedDoc, sharedDocs } from './share.ts';
import type { TreeSource } from './sources.ts';
import type { Change } from './types.ts';

export type StoredDocuments = {
  /** The documents parsed now, with their JSON (stored for the next incremental build). */
  parsed: Map<string, { blob: string; json: string; doc: ParsedDocument }>;
  /** Each one's file item (null when it has none: refused). */
  items: Map<string, string | null>;
  /** The file items added anew (the caller indexes them). */
  added: string[];
  /** The documents left out for their bytes, with the reason: binary ones ([T5]). */
  leftOut: Map<string, string>;
};

/** Why a document's bytes keep it out of the tree (binary, as `brain add` refuses them), or null. */
function bytesLeftOut(bytes: Buffer): string | null {
  try {
    detectEncoding(bytes);
    return null;
  } catch (err) {
    if (err instanceof AppError && err.code === 'refused') return err.message;
    throw err;
  }
}

/** Reads, parses and stores some documents of a listing, in order. */
export async function storeDocuments(
  engine: Engine,
  source: TreeSource,
  listing: Listing,
  entries: readonly Entry[],
): Promise<StoredDocuments> {
  const changedOf = (path: string) => listing.changes?.get(path) ?? null;
  const bytes = await listing.read(entries);
  const out: StoredDocuments = { parsed: new Map(), items: new Map(), added: [], leftOut: new Map() };
  const result: AddResult = { added: [], unchanged: [], refused: [], scopeKept: [] };
  const anew = new Set<string>();
  for (const e of entries) {
    const b = bytes.get(e.path) ?? Buffer.alloc(0);
    const reason = bytesLeftOut(b);
    if (reason !== null) {
      out.leftOut.set(e.path, reason);
      continue;
    }
    const p = parseDocument({ path: e.path, text: b.toString('utf8'), changed: changedOf(e.path) });
    out.parsed.set(e.path, { blob: e.blob, json: JSON.stringify(p), doc: p });
    if (listing.shared) {
      out.items.set(e.path, listing.shared.items.get(e.path) ?? null);
      continue;
    }
    const [added, unchanged] = [result.added.length, result.unchanged.length];
    const changed = changedOf(e.path);
    await addBytes(
      { db: engine.db, blobs: engine.blobs, workspaceId: engine.workspaceId, user: engine.user },
      {
        bytes: b,
        name: basename(e.path),
        path: `${basename(source.root)}/${e.path}`,
        sourceKey: `tree:${source.id}:${e.path}`,
        mtime: changed ? new Date(changed.date) : new Date(),
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
    out.items.set(e.path, entry?.id ?? null);
  }
  out.added = result.added.map((a) => a.id);
  if (!listing.shared) markOrigins(engine, source, listing, { anew, items: out.items });
  return out;
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
  build: { anew: ReadonlySet<string>; items: ReadonlyMap<string, string | null> },
): void {
  const read = stmt(engine.db, 'SELECT locator FROM items WHERE id = ?');
  const write = stmt(engine.db, 'UPDATE items SET locator = ?, updated_at = ? WHERE id = ?');
  const at = new Date().toISOString();
  writeTx(engine.db, () => {
    for (const [path, item] of build.items) {
      if (!item) continue;
      const now = read.get(item) as { locator: string | null } | undefined;
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
        changed: (listing.changes?.get(path) ?? null) satisfies Change | null,
      };
      const text = repoOriginText(origin);
      if (now?.locator !== text) write.run(text, at, item);
    }
  });
}

/**
 * The items of documents the repository no longer has are retired: search finds them no more.
 * Returns the creator's document items that stay, as replicas will see them.
 */
export function retireRemoved(engine: Engine, source: TreeSource, present: ReadonlySet<string>): SharedDoc[] {
  const docs = sharedDocs(engine.db, engine.workspaceId, source.createdBy, source.id);
  const kept: SharedDoc[] = [];
  for (const d of docs) {
    if (present.has(d.path)) kept.push(d);
    else retireFile(engine.db, d.id);
  }
  return kept;
}

/** Retires the items of some documents the tree no longer holds (a build that knows which). */
export function retireDocuments(engine: Engine, docs: Iterable<SharedDoc>): void {
  for (const d of docs) retireFile(engine.db, d.id);
}
