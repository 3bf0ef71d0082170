/**
 * The claim on a source's compile pass (docs/FACTS.md [K11]), the pattern of the write-back claim
 * (src/engine/writeback/claim.ts; the lease itself is src/engine/jobs/jobs-lease.ts): one IMMEDIATE
 * transaction inserts the source's compile_claims row under a token made for this claim, so two
 * processes on one workspace (a host and `brain compile`) never both call the model for one source.
 *  - a live row (its lease not run out) means another process compiles the source: it is skipped;
 *  - a row whose lease ran out (its process was killed) is taken over under a new token;
 *  - the row is deleted on every outcome: in the pass's write transaction when it writes, when it
 *    fails, and when it is stopped (the lease given back); a pass whose row no longer names its
 *    token writes nothing.
 */
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { claimToken, type LeaseHooks, leaseUntil } from '../jobs/jobs-lease.ts';

/** Takes the source's compile claim: its token, or null while another process holds it. */
export function claimSource(db: Db, sourceId: string): string | null {
  return writeTx(db, () => {
    const row = stmt(db, 'SELECT lease_until FROM compile_claims WHERE source_id = ?').get(sourceId) as
      | { lease_until: number }
      | undefined;
    if (row && row.lease_until >= Date.now()) return null;
    const token = claimToken();
    stmt(
      db,
      `INSERT INTO compile_claims (source_id, owner, lease_until, started_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (source_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until,
         started_at = excluded.started_at`,
    ).run(sourceId, token, leaseUntil(), new Date().toISOString());
    return token;
  });
}

/** True while the source's claim row still names this token. Call inside the transaction that writes. */
export function holdsSource(db: Db, sourceId: string, token: string): boolean {
  const row = stmt(db, 'SELECT owner FROM compile_claims WHERE source_id = ?').get(sourceId) as
    | { owner: string }
    | undefined;
  return row?.owner === token;
}

/** Deletes the claim row if it names this token (the pass is over, whatever its outcome). */
export function dropClaim(db: Db, sourceId: string, token: string): void {
  stmt(db, 'DELETE FROM compile_claims WHERE source_id = ? AND owner = ?').run(sourceId, token);
}

/** What the lease's heartbeat and its giving back do to the claim row (jobs-lease.ts). */
export function sourceLeaseHooks(db: Db, sourceId: string, token: string): LeaseHooks {
  return {
    renew: (until) =>
      stmt(db, 'UPDATE compile_claims SET lease_until = ? WHERE source_id = ? AND owner = ?').run(
        until,
        sourceId,
        token,
      ).changes === 1,
    release: () => {
      if (db.open) writeTx(db, () => dropClaim(db, sourceId, token));
    },
  };
}
