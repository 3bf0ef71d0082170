/**
 * The claim on an agent's synthesis (docs/AGENTS.md [G3]), like the write-back pass's
 * (src/engine/writeback/claim.ts; the lease is src/engine/jobs/jobs-lease.ts): one IMMEDIATE
 * transaction re-reads the agent row, refuses while another process holds an unexpired lease,
 * checks the due rule there (so a process that waited sees the synthesis the other made), gathers
 * the inputs, and writes its token and lease into the row. A lease that ran out (its process was
 * killed) is taken over under a new token. The claim is released on every outcome: the write
 * clears it in its own transaction, a failure gives it back.
 */
import { type Db, writeTx } from '../db/driver.ts';
import { claimToken, type LeaseHooks, leaseUntil } from '../jobs/jobs-lease.ts';
import { type AgentRow, getAgentById } from './agents.ts';

export type ClaimResult<T> = { token: string; agent: AgentRow; value: T } | { refused: string };

/**
 * Claims the agent's synthesis when `check` (run inside the claim's transaction, on the fresh row)
 * returns a value; a string from `check` is why not, and nothing is claimed.
 */
export function claimSynthesis<T>(
  db: Db,
  id: string,
  check: (agent: AgentRow) => T | string,
): ClaimResult<T> {
  return writeTx(db, () => {
    const agent = getAgentById(db, id);
    if (!agent) return { refused: `no agent ${id}` };
    if (agent.synthesis_owner !== null && (agent.synthesis_lease_until ?? 0) >= Date.now())
      return { refused: `another process is synthesizing ${agent.name} (claim ${agent.synthesis_owner})` };
    const value = check(agent);
    if (typeof value === 'string') return { refused: value };
    const token = claimToken();
    db.prepare('UPDATE agents SET synthesis_owner = ?, synthesis_lease_until = ? WHERE id = ?').run(
      token,
      leaseUntil(),
      id,
    );
    return { token, agent, value };
  });
}

/** True while the agent row still names this claim. Call inside the transaction that writes. */
export function holdsSynthesis(db: Db, id: string, token: string): boolean {
  return getAgentById(db, id)?.synthesis_owner === token;
}

/** What the lease's heartbeat and its giving back do to the agent row. */
export function synthesisLeaseHooks(db: Db, id: string, token: string): LeaseHooks {
  return {
    renew: (until) =>
      db
        .prepare('UPDATE agents SET synthesis_lease_until = ? WHERE id = ? AND synthesis_owner = ?')
        .run(until, id, token).changes === 1,
    release: () => {
      if (!db.open) return;
      db.prepare(
        'UPDATE agents SET synthesis_owner = NULL, synthesis_lease_until = NULL WHERE id = ? AND synthesis_owner = ?',
      ).run(id, token);
    },
  };
}
