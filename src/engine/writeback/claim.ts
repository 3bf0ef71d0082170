/**
 * The claim on a run's one write-back pass ([J1]–[J3] in docs/WORKSPACE.md; the lease itself is
 * src/engine/jobs/jobs-lease.ts). The pass row is keyed by the run id and the claim is one IMMEDIATE
 * transaction (run still pending → pass row inserted → run marked running), so two processes, or a
 * run that ends twice, never get two passes. The row's `owner` is the claim's token:
 *  - a pass left `running` under a lease that ran out (its process was killed) is taken over by
 *    the next process that looks, under a new token;
 *  - a pass given back (its process stopped early) is deleted and the run is pending again;
 *  - a pass writes its outcome only while the row still names its token ([J2]), so a pass whose
 *    claim was taken over or given back writes nothing and a takeover never duplicates.
 */
import { type Db, writeTx } from '../db/driver.ts';
import { claimToken, type LeaseHooks, leaseUntil } from '../jobs/jobs-lease.ts';

export type RunRow = {
  id: string;
  user_id: string;
  agent: string;
  status: string;
  work_products: string;
  writeback_state: string;
};

export type Claim = { run: RunRow; token: string };

/** Runs waiting for their pass: pending, or running under a lease that ran out. */
export function pendingRuns(db: Db): string[] {
  const rows = db
    .prepare(
      `SELECT r.id FROM runs r LEFT JOIN writeback_passes p ON p.run_id = r.id
       WHERE r.status IN ('succeeded', 'blocked')
         AND (r.writeback_state = 'pending' OR (r.writeback_state = 'running' AND p.state = 'running' AND p.lease_until < ?))
       ORDER BY r.ended_at LIMIT 20`,
    )
    .all(Date.now()) as { id: string }[];
  return rows.map((r) => r.id);
}

/** Takes the run's one pass, or returns why not. */
export function claimRun(db: Db, runId: string, model: string): Claim | string {
  return writeTx(db, () => {
    const run = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
    if (!run) return `no run ${runId}`;
    if (run.status !== 'succeeded' && run.status !== 'blocked') return `the run ${run.status}: no write-back`;
    const pass = db.prepare('SELECT state, lease_until FROM writeback_passes WHERE run_id = ?').get(runId) as
      | { state: string; lease_until: number | null }
      | undefined;
    const now = new Date().toISOString();
    const token = claimToken();
    if (pass) {
      const stale = pass.state === 'running' && (pass.lease_until ?? 0) < Date.now();
      if (!stale) return `the run already had its write-back pass (${pass.state})`;
      db.prepare(
        `UPDATE writeback_passes SET owner = ?, lease_until = ?, attempts = attempts + 1, started_at = ?, model = ?
         WHERE run_id = ?`,
      ).run(token, leaseUntil(), now, model, runId);
    } else {
      if (run.writeback_state !== 'pending') return `the run's write-back is ${run.writeback_state}`;
      db.prepare(
        `INSERT INTO writeback_passes (run_id, state, owner, lease_until, model, started_at)
         VALUES (?, 'running', ?, ?, ?, ?)`,
      ).run(runId, token, leaseUntil(), model, now);
    }
    db.prepare("UPDATE runs SET writeback_state = 'running', updated_at = ? WHERE id = ?").run(now, runId);
    return { run, token };
  });
}

/** True while the run's pass row still names this claim. Call inside the transaction that writes. */
export function holdsClaim(db: Db, runId: string, token: string): boolean {
  const row = db.prepare('SELECT state, owner FROM writeback_passes WHERE run_id = ?').get(runId) as
    | { state: string; owner: string | null }
    | undefined;
  return row?.state === 'running' && row.owner === token;
}

/** What the lease's heartbeat and its giving back do to the pass row (jobs-lease.ts). */
export function passLeaseHooks(db: Db, runId: string, token: string): LeaseHooks {
  return {
    renew: (until) =>
      db
        .prepare(
          "UPDATE writeback_passes SET lease_until = ? WHERE run_id = ? AND owner = ? AND state = 'running'",
        )
        .run(until, runId, token).changes === 1,
    release: () => {
      if (!db.open) return;
      writeTx(db, () => {
        const gone = db
          .prepare("DELETE FROM writeback_passes WHERE run_id = ? AND owner = ? AND state = 'running'")
          .run(runId, token).changes;
        if (gone === 0) return;
        db.prepare(
          "UPDATE runs SET writeback_state = 'pending', updated_at = ? WHERE id = ? AND writeback_state = 'running'",
        ).run(new Date().toISOString(), runId);
      });
    },
  };
}

/** Records a failed pass (nothing written); false when the claim is no longer this one. */
export function finishFailed(db: Db, runId: string, token: string, error: string): boolean {
  return writeTx(db, () => {
    if (!holdsClaim(db, runId, token)) return false;
    const now = new Date().toISOString();
    db.prepare(
      `UPDATE writeback_passes SET state = 'failed', error = ?, lease_until = NULL, finished_at = ? WHERE run_id = ?`,
    ).run(error.slice(0, 2000), now, runId);
    db.prepare("UPDATE runs SET writeback_state = 'done', updated_at = ? WHERE id = ?").run(now, runId);
    return true;
  });
}
