/**
 * The files an access check names ([R4] in docs/RETRIEVAL.md): an item id (`f_…`), else a path,
 * else a name, exact, as the Files grid shows them (label, `canonical_value`). Looked up in the
 * whole local store, whatever its scope: a check names files a member must not reach. A name that
 * matches no file, or several, is an error of the case that gives it, never a file nobody reached.
 */
import { type Db, stmt } from '../db/driver.ts';

export type FileRef = { id: string } | { error: string };

const LIVE_FILE = "storage_kind = 'file' AND retired_at IS NULL";

function several(ref: string, ids: readonly string[]): FileRef {
  const shown = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '');
  return { error: `"${ref}" names ${ids.length} files (${shown}): name one by its path or its id` };
}

/** Each distinct reference once: ids by key, paths in one pass over the files, names by index. */
export function resolveFileRefs(db: Db, refs: Iterable<string>): Map<string, FileRef> {
  const out = new Map<string, FileRef>();
  const pending = [...new Set(refs)].filter((ref) => {
    const row = stmt(db, `SELECT id FROM items WHERE id = ? AND ${LIVE_FILE}`).get(ref) as
      | { id: string }
      | undefined;
    if (row) out.set(ref, { id: row.id });
    return !row;
  });
  if (pending.length === 0) return out;
  const byPath = new Map<string, string[]>();
  const rows = stmt(
    db,
    `SELECT id, canonical_value AS path FROM items
     WHERE ${LIVE_FILE} AND canonical_value IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
  ).all(JSON.stringify(pending)) as { id: string; path: string }[];
  for (const r of rows) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.id]);
  for (const ref of pending) {
    const ids =
      byPath.get(ref) ??
      (
        stmt(db, `SELECT id FROM items WHERE label = ? AND ${LIVE_FILE} ORDER BY rowid`).all(ref) as {
          id: string;
        }[]
      ).map((r) => r.id);
    if (ids.length === 1) out.set(ref, { id: ids[0] as string });
    else if (ids.length > 1) out.set(ref, several(ref, ids));
    else
      out.set(ref, { error: `no file "${ref}" in this workspace (give its id f_…, its path or its name)` });
  }
  return out;
}
