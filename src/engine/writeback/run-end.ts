/**
 * The end of a run (runs.end, src/shared/api/ops/graph.ts): stored in `runs` for the write-back
 * pass, which takes runs in `pending` (succeeded or blocked: [W1] in docs/PRODUCT.md); failed and
 * cancelled runs are kept as `skipped`. Ending the same run again replaces what it handed in as
 * long as write-back has not started on it (or was given back, [J3] in docs/WORKSPACE.md); after
 * that it is a conflict.
 */
import type { Surface } from '#shared/api/operation.ts';
import type { RUN_STATUSES } from '#shared/api/ops/graph.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { writeTx } from '../db/driver.ts';
import { readLiveOwner } from '../embed/remote.ts';
import { type WritebackDeps, writebackInBackground } from './pass.ts';

type RunStatus = (typeof RUN_STATUSES)[number];

export type RunEnd = {
  run: string;
  workspaceId: string;
  user: string;
  agent: string;
  status: RunStatus;
  workProducts: string;
  startedAt: string | null;
  /** The agent brain version the run read (docs/AGENTS.md [G7]); null: none. */
  brainVersion?: number | null;
  /** The agent whose brain it read ([G12]): a name may be the member's own agent or one shared with them. */
  brainAgent?: string | null;
};

export type RunRecord = {
  run: string;
  status: RunStatus;
  writeback: 'pending' | 'skipped';
  replaced: boolean;
};

export function recordRunEnd(db: Db, end: RunEnd): RunRecord {
  const writeback = end.status === 'succeeded' || end.status === 'blocked' ? 'pending' : 'skipped';
  const now = new Date().toISOString();
  return writeTx(db, () => {
    const prev = db.prepare('SELECT user_id, writeback_state FROM runs WHERE id = ?').get(end.run) as
      | { user_id: string; writeback_state: string }
      | undefined;
    if (prev && prev.user_id !== end.user) {
      throw new AppError('conflict', `Run ${end.run} was ended by another user; use your own run id.`);
    }
    if (prev && prev.writeback_state !== 'pending' && prev.writeback_state !== 'skipped') {
      throw new AppError('conflict', `Run ${end.run} is already with write-back (${prev.writeback_state}).`);
    }
    db.prepare(
      `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, started_at,
         ended_at, updated_at, brain_version, agent_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET agent = excluded.agent, status = excluded.status,
         work_products = excluded.work_products, writeback_state = excluded.writeback_state,
         ended_at = excluded.ended_at, updated_at = excluded.updated_at,
         brain_version = excluded.brain_version, agent_id = excluded.agent_id`,
    ).run(
      end.run,
      end.workspaceId,
      end.user,
      end.agent,
      end.status,
      end.workProducts,
      writeback,
      end.startedAt,
      now,
      now,
      end.brainVersion ?? null,
      end.brainAgent ?? null,
    );
    return { run: end.run, status: end.status, writeback, replaced: prev !== undefined };
  });
}

export type WritebackHandoff =
  | { by: 'owner'; pid: number }
  | { by: 'this-process' }
  | { by: 'host' }
  | { by: 'later' };

/**
 * Where the pass of a run just ended (and pending) runs ([J4] in docs/WORKSPACE.md), by the
 * surface it was ended on:
 * - the app and `brain serve` (`app`) are a long-lived host whose own write-back loop looks for
 *   pending runs every few seconds (src/engine/host/writeback-host.ts): it takes the run;
 * - an agent's `brain mcp` on stdio usually exits right after `brain_run_end` (its client closes
 *   it), so a live owner (`<home>/owner.json`: `brain serve`, `brain mcp --http`;
 *   src/engine/embed/remote.ts) gets the run; only without one does this process run the pass,
 *   under a short lease that it gives back if it stops early ([J1], [J3]);
 * - a `brain` command exits as soon as it has answered, so a pass started there would only be
 *   given back: a live owner gets the run, else it waits for the next host or
 *   `brain runs --process` ([J5]).
 */
export function handOffWriteback(deps: WritebackDeps, runId: string, surface: Surface): WritebackHandoff {
  if (surface === 'app') return { by: 'host' };
  const owner = readLiveOwner(deps.home);
  if (owner) return { by: 'owner', pid: owner.pid };
  if (surface === 'cli') return { by: 'later' };
  writebackInBackground(deps, runId);
  return { by: 'this-process' };
}
