/**
 * Who may reference and read which bytes (docs/SYNC_SPEC.md [S27]). `blob_uploads` records each
 * member who uploaded a blob (proving they hold the bytes: the route checks the hash). An item may
 * reference a blob its pusher uploaded or can already read through an item; reads go only through
 * an item the reader can see (every reference was checked when it was pushed). Uploads no item references are removed
 * after a grace period, and a member's uploads count against a storage quota.
 */
import { AppError } from '#shared/errors.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { BlobStore } from './store.ts';

/** Defaults: 10 GiB of uploads per member; an upload nothing references is kept for a day. */
export const DEFAULT_BLOB_QUOTA_BYTES = 10 * 1024 ** 3;
export const DEFAULT_BLOB_GRACE_MS = 24 * 3600 * 1000;

export async function uploadedBy(
  tx: Queryable,
  user: string,
  hashes: readonly string[],
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await tx.query<{ hash: string }>(
    'SELECT hash FROM blob_uploads WHERE user_id = $1 AND hash = ANY($2::text[])',
    [user, hashes],
  );
  return new Set(rows.map((r) => r.hash));
}

/** The hashes among `hashes` that an item in one of `scopes` holds now. */
export async function readableBlobs(
  tx: Queryable,
  scopes: readonly string[],
  hashes: readonly string[],
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await tx.query<{ blob: string }>(
    'SELECT DISTINCT blob FROM items WHERE blob = ANY($1::text[]) AND scope = ANY($2::text[])',
    [hashes, scopes],
  );
  return new Set(rows.map((r) => r.blob));
}

/** Bytes a member has uploaded (each blob once), other than `except`. */
async function storedBy(tx: Queryable, user: string, except: string | null = null): Promise<number> {
  const rows = await tx.query<{ n: number | string | null }>(
    'SELECT COALESCE(SUM(size), 0) AS n FROM blob_uploads WHERE user_id = $1 AND hash IS DISTINCT FROM $2',
    [user, except],
  );
  return Number(rows[0]?.n ?? 0);
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Refuses an upload that would take the member past their quota ([S27]). */
export async function assertQuota(tx: Queryable, user: string, hash: string, size: number, quota: number) {
  const used = await storedBy(tx, user, hash);
  if (used + size <= quota) return;
  throw new AppError(
    'refused',
    `Storage quota reached: ${user} has ${mib(used)} of uploads on this server and this file is ${mib(size)} (the quota is ${mib(quota)}); remove files or ask an admin to raise BRAIN_BLOB_QUOTA_BYTES.`,
    { status: 413 },
  );
}

export async function recordUpload(db: Queryable, user: string, hash: string, size: number, at: string) {
  await db.query(
    `INSERT INTO blob_uploads (hash, user_id, size, uploaded_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (hash, user_id) DO UPDATE SET uploaded_at = EXCLUDED.uploaded_at, size = EXCLUDED.size`,
    [hash, user, size, at],
  );
}

/** May a member who sees `scopes` read `hash`: only through an item they can see that holds it. */
export async function canRead(db: Queryable, scopes: readonly string[], hash: string) {
  return (await readableBlobs(db, scopes, [hash])).size > 0;
}

/** The advisory lock the sweep and an erase's byte deletion take: one deleter at a time. */
const DELETER_LOCK = 4242001;

/** The hashes among `hashes` that no upload and no item references. */
async function unreferenced(tx: Queryable, hashes: readonly string[]): Promise<string[]> {
  const kept = await tx.query<{ hash: string }>(
    `SELECT hash FROM blob_uploads WHERE hash = ANY($1::text[])
     UNION SELECT blob AS hash FROM items WHERE blob = ANY($1::text[])`,
    [[...hashes]],
  );
  const keep = new Set(kept.map((k) => k.hash));
  return [...new Set(hashes)].filter((h) => !keep.has(h));
}

/**
 * Removes uploads no item references once they are older than `graceMs`, then the bytes no item
 * references and nobody uploaded within the grace period, and the bytes an erase queued that a
 * crash left (docs/SYNC_SPEC.md [S36]). One server at a time (an advisory lock): several processes
 * may share one database and blob store.
 */
export async function sweepBlobs(db: Db, blobs: BlobStore, now: Date, graceMs: number): Promise<number> {
  const before = new Date(now.getTime() - graceMs).toISOString();
  let gone = 0;
  await db.transaction(async (tx) => {
    const locked = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
      DELETER_LOCK,
    ]);
    if (!locked[0]?.ok) return;
    const rows = await tx.query<{ hash: string }>(
      `DELETE FROM blob_uploads u WHERE u.uploaded_at < $1
         AND NOT EXISTS (SELECT 1 FROM items i WHERE i.blob = u.hash)
       RETURNING u.hash`,
      [before],
    );
    const queued = await tx.query<{ hash: string }>('SELECT hash FROM blob_deletions');
    gone = await deleteLocked(
      tx,
      blobs,
      [...rows, ...queued].map((r) => r.hash),
    );
  });
  return gone;
}

/** Under the deleter's lock: deletes the bytes of `hashes` nothing references and clears their queue rows. */
async function deleteLocked(tx: Queryable, blobs: BlobStore, hashes: readonly string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  const gone = await unreferenced(tx, hashes);
  for (const hash of gone) await blobs.delete(hash);
  await tx.query('DELETE FROM blob_deletions WHERE hash = ANY($1::text[])', [[...new Set(hashes)]]);
  return gone.length;
}

/**
 * Deletes the bytes of `hashes` that are still referenced by no upload and no item, checked again
 * under the sweep's lock once the erase that queued them has committed (docs/SYNC_SPEC.md [S35]): a
 * teammate who uploaded the same bytes since keeps them.
 */
export async function deleteUnreferencedBytes(db: Db, blobs: BlobStore, hashes: readonly string[]) {
  if (hashes.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DELETER_LOCK]);
    await deleteLocked(tx, blobs, hashes);
  });
}
