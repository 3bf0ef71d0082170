/**
 * A persistent job queue in the workspace database. A job is claimed with a lease; a process that
 * dies leaves its lease behind, and the job is claimed again once the lease runs out (at once when
 * the owning process, on this machine, is known to be gone). Work is idempotent, so a resumed job
 * never duplicates anything.
 */
import { hostname } from 'node:os';
import { type Db, stmt, writeTx } from '../db/driver.ts';

export type JobKind = 'index' | 'embed';
export type Job = { id: number; kind: JobKind; item_id: string; attempts: number };

const LEASE_MS = 60_000;
const OWNER = `${hostname()}:${process.pid}`;

export function enqueue(db: Db, kind: JobKind, itemIds: readonly string[]): number {
  const now = new Date().toISOString();
  const insert = stmt(
    db,
    `INSERT OR IGNORE INTO jobs (kind, item_id, state, created_at, updated_at) VALUES (?, ?, 'queued', ?, ?)`,
  );
  return writeTx(db, () => itemIds.reduce((n, id) => n + insert.run(kind, id, now, now).changes, 0));
}

function ownerIsGone(owner: string | null): boolean {
  if (!owner) return true;
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid) return false;
  if (Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch {
    return true;
  }
}

/** Takes the next job of a kind (queued, or running under an expired or dead lease). */
export function claim(db: Db, kind: JobKind): Job | null {
  return writeTx(db, () => {
    const now = Date.now();
    const candidates = stmt(
      db,
      `SELECT id, lease_owner, lease_until, state FROM jobs
         WHERE kind = ? AND state IN ('queued', 'running') ORDER BY id LIMIT 50`,
    ).all(kind) as { id: number; lease_owner: string | null; lease_until: number | null; state: string }[];
    const pick = candidates.find(
      (c) => c.state === 'queued' || (c.lease_until ?? 0) < now || ownerIsGone(c.lease_owner),
    );
    if (!pick) return null;
    return stmt(
      db,
      `UPDATE jobs SET state = 'running', lease_owner = ?, lease_until = ?, attempts = attempts + 1,
         updated_at = ? WHERE id = ? RETURNING id, kind, item_id, attempts`,
    ).get(OWNER, now + LEASE_MS, new Date().toISOString(), pick.id) as Job;
  });
}

export function heartbeat(db: Db, jobId: number): void {
  stmt(db, 'UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?').run(
    Date.now() + LEASE_MS,
    jobId,
    OWNER,
  );
}

export function finish(db: Db, jobId: number, error: string | null): void {
  stmt(
    db,
    `UPDATE jobs SET state = ?, error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?`,
  ).run(error ? 'failed' : 'done', error, new Date().toISOString(), jobId);
}
