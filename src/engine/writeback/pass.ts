/**
 * One write-back pass per run ([W1] in docs/PRODUCT.md), fire and forget.
 *
 * - Claimed once (claim.ts): a pass left `running` by a process that was killed is taken over once
 *   its short lease runs out, and a pass whose process stopped early was given back and is pending
 *   again ([J1]–[J3] in docs/WORKSPACE.md). While the pass runs, a heartbeat renews its lease.
 * - Nothing is written until the writer has finished: proposals are collected in memory, then the
 *   gate's decisions, the proposal rows and the notes written straight in land in one transaction,
 *   and only while the claim is still this pass's ([J2]). A model failure or timeout mid-pass
 *   therefore changes nothing; it is recorded on the pass (failed, with the error) and logged.
 * - Without a model the run stays pending ("write-back is off") and is picked up once one is set.
 */

import { randomUUID } from 'node:crypto';
import { actorUnder } from '#shared/ids.ts';
import { type Db, writeTx } from '../db/driver.ts';
import type { Embedder } from '../embed/index.ts';
import { holdLease, type Lease } from '../jobs/jobs-lease.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { type ModelAccess, offReason, readModelConfig, resolveModel } from '../llm/config.ts';
import { visibleScopes } from '../scope.ts';
import { search } from '../search/search.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { userExists } from '../workspace.ts';
import { claimRun, finishFailed, holdsClaim, passLeaseHooks, pendingRuns, type RunRow } from './claim.ts';
import { type GateDecision, gate, type Proposal } from './gate.ts';
import { runWriter, type WriterPassage } from './writer.ts';

export { pendingRuns } from './claim.ts';

export type WritebackDeps = {
  db: Db;
  home: string;
  workspaceId: string;
  embedder: Embedder;
  surface: Surface;
};

export type PassResult =
  | { state: 'off'; run: string; reason: string }
  | { state: 'not-claimed'; run: string; reason: string }
  | { state: 'released'; run: string; reason: string }
  | { state: 'failed'; run: string; error: string }
  | {
      state: 'done';
      run: string;
      offered: number;
      decisions: (GateDecision & { id: string; label: string })[];
    };

export type PassOptions = {
  access?: ModelAccess | null;
  timeoutMs?: number;
  /** Aborted when the host stops: the pass in flight gives its claim back ([J3]). */
  signal?: AbortSignal;
};

async function searchPassages(deps: WritebackDeps, user: string, query: string): Promise<WriterPassage[]> {
  let queryVector: { vector: Float32Array; model: string } | null = null;
  if (deps.embedder.state().status === 'on') {
    try {
      const model = deps.embedder.modelId();
      if (model) queryVector = { vector: await deps.embedder.embedQuery(query), model };
    } catch {
      queryVector = null;
    }
  }
  const result = search(deps.db, query, { scopes: visibleScopes(deps.db, user), k: 5, maxK: 8, queryVector });
  // The writer fences each passage (writer.ts, docs/SECURITY.md [F1]); no numbering here.
  return result.hits;
}

/** Runs the pass of one run (if it can be claimed). Never throws for a model failure. */
export async function runWritebackPass(
  deps: WritebackDeps,
  runId: string,
  options: PassOptions = {},
): Promise<PassResult> {
  const access = options.access === undefined ? await resolveModel(deps.db, deps.home) : options.access;
  if (!access) {
    return { state: 'off', run: runId, reason: `write-back is off: ${offReason(readModelConfig(deps.db))}` };
  }
  if (options.signal?.aborted) return { state: 'not-claimed', run: runId, reason: 'the host is stopping' };
  const claimed = claimRun(deps.db, runId, access.model);
  if (typeof claimed === 'string') return { state: 'not-claimed', run: runId, reason: claimed };
  const lease = holdLease(claimed.token, passLeaseHooks(deps.db, runId, claimed.token), {
    group: deps.db,
    signal: options.signal,
  });
  try {
    return await runClaimed(deps, claimed.run, lease, { ...options, access });
  } finally {
    lease.end();
  }
}

const gaveUp = (runId: string): PassResult => ({
  state: 'released',
  run: runId,
  reason: 'the claim was given back or taken over before the pass ended: nothing written',
});

async function runClaimed(
  deps: WritebackDeps,
  run: RunRow,
  lease: Lease,
  options: PassOptions & { access: ModelAccess },
): Promise<PassResult> {
  const user = run.user_id && userExists(deps.db, run.user_id) ? run.user_id : null;
  let written: Awaited<ReturnType<typeof runWriter>>;
  try {
    written = await runWriter(options.access, {
      workProducts: run.work_products,
      agent: run.agent,
      status: run.status,
      user,
      search: (q) => searchPassages(deps, user ?? '', q),
      timeoutMs: options.timeoutMs,
      signal: lease.signal,
    });
  } catch (err) {
    if (!lease.held()) return gaveUp(run.id);
    const error = err instanceof Error ? err.message : String(err);
    if (!finishFailed(deps.db, run.id, lease.token, error)) return gaveUp(run.id);
    logEvent(deps.db, deps.surface, run.user_id, 'writeback', {
      run: run.id,
      ok: false,
      error,
      summary: `write-back of run ${run.id} failed, nothing written: ${error}`,
    });
    return { state: 'failed', run: run.id, error };
  }
  if (!lease.held()) return gaveUp(run.id);
  const decisions = await applyDecisions(deps, run, user, written.proposals, lease.token);
  if (!decisions) return gaveUp(run.id);
  logEvent(deps.db, deps.surface, run.user_id, 'writeback', {
    run: run.id,
    ok: true,
    offered: written.offered,
    steps: written.steps,
    decisions: decisions.map((d) => ({ id: d.id, decision: d.decision, reason: d.reason, scope: d.scope })),
    summary: `write-back of run ${run.id}: ${decisions.length} proposal${decisions.length === 1 ? '' : 's'} (${count(decisions, 'write')} written, ${count(decisions, 'review')} to review, ${count(decisions, 'skip')} skipped)`,
  });
  return { state: 'done', run: run.id, offered: written.offered, decisions };
}

function count(ds: readonly { decision: string }[], d: string): number {
  return ds.filter((x) => x.decision === d).length;
}

async function noteVector(deps: WritebackDeps, text: string) {
  if (deps.embedder.state().status !== 'on') return null;
  try {
    const model = deps.embedder.modelId();
    return model ? { model, vector: await deps.embedder.embedQuery(text) } : null;
  } catch {
    return null;
  }
}

async function applyDecisions(
  deps: WritebackDeps,
  run: RunRow,
  user: string | null,
  proposals: readonly Proposal[],
  token: string,
): Promise<(GateDecision & { id: string; label: string })[] | null> {
  const ctx = {
    user,
    userExists: (id: string) => userExists(deps.db, id),
    writable: user ? visibleScopes(deps.db, user) : ['org'],
  };
  const decided = proposals.map((p, ordinal) => ({ p, ordinal, d: gate(p, ctx), id: randomUUID() }));
  const vectors = await Promise.all(
    decided.map((x) => (x.d.decision === 'write' ? noteVector(deps, `${x.p.label}\n${x.p.body}`) : null)),
  );
  const now = new Date().toISOString();
  const owned = writeTx(deps.db, () => {
    // [J2]: a pass whose claim was given back or taken over meanwhile writes nothing.
    if (!holdsClaim(deps.db, run.id, token)) return false;
    const insert = deps.db.prepare(
      `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, sensitive,
         sensitive_reason, detected, decision, reason, state, item_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    decided.forEach(({ p, ordinal, d, id }, i) => {
      let itemId: string | null = null;
      if (d.decision === 'write') {
        itemId = upsertNote(
          deps.db,
          deps.workspaceId,
          {
            kind: p.kind.trim() || 'fact',
            label: p.label.trim().slice(0, 200),
            body: p.body.trim(),
            scope: d.scope,
            // Keyed by the proposal (a uuid), not by run and position: agents name their runs, and two
            // devices' runs may share a name; their notes must not be one item.
            sourceKey: `writeback:${id}`,
            // The write-back label is kept under the member the run worked for ([S26]).
            actor: actorUnder(`writeback:${run.agent}`, user ?? run.user_id ?? run.agent),
            source: 'writeback',
            run: run.id,
          },
          vectors[i] ?? null,
        ).id;
      }
      const state = d.decision === 'write' ? 'written' : d.decision === 'review' ? 'pending' : 'skipped';
      insert.run(
        id,
        run.id,
        ordinal,
        user,
        p.kind.trim().slice(0, 60) || 'fact',
        p.label.trim().slice(0, 300),
        p.body.trim().slice(0, 6000),
        d.scope,
        Number.isFinite(p.confidence) ? p.confidence : 0,
        p.sensitive || d.detected.length > 0 ? 1 : 0,
        p.sensitiveReason ?? null,
        JSON.stringify(d.detected),
        d.decision,
        d.reason,
        state,
        itemId,
        now,
      );
      logEvent(deps.db, deps.surface, run.user_id, 'writeback.decision', {
        run: run.id,
        proposal: id,
        label: p.label.slice(0, 120),
        decision: d.decision,
        reason: d.reason,
        scope: d.scope,
        confidence: p.confidence,
        detected: d.detected.map((x) => x.kind),
        item: itemId,
        summary: `${d.decision} "${p.label.slice(0, 60)}": ${d.reason}`,
      });
    });
    const ds = decided.map((x) => x.d);
    deps.db
      .prepare(
        `UPDATE writeback_passes SET state = 'done', lease_until = NULL, finished_at = ?, proposed = ?, written = ?,
           reviewed = ?, skipped = ? WHERE run_id = ?`,
      )
      .run(now, ds.length, count(ds, 'write'), count(ds, 'review'), count(ds, 'skip'), run.id);
    deps.db.prepare("UPDATE runs SET writeback_state = 'done', updated_at = ? WHERE id = ?").run(now, run.id);
    return true;
  });
  return owned ? decided.map((x) => ({ ...x.d, id: x.id, label: x.p.label })) : null;
}

/** Works every pending run, and every run whose lease ran out, once (the host's loop, `brain runs --process`). */
export async function runPendingWritebacks(
  deps: WritebackDeps,
  options: PassOptions = {},
): Promise<PassResult[]> {
  const access = options.access === undefined ? await resolveModel(deps.db, deps.home) : options.access;
  if (!access) return [];
  const out: PassResult[] = [];
  for (const id of pendingRuns(deps.db)) {
    if (options.signal?.aborted) break;
    out.push(await runWritebackPass(deps, id, { ...options, access }));
  }
  return out;
}

/** Fire and forget: the run's pass in the background of this process (see src/engine/writeback/run-end.ts). */
export function writebackInBackground(deps: WritebackDeps, runId: string): void {
  void runWritebackPass(deps, runId).catch((err: unknown) => {
    try {
      logEvent(deps.db, deps.surface, 'system', 'writeback', {
        run: runId,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      });
    } catch {
      // The engine closed under the pass (the process is stopping): its claim was given back ([J3]).
    }
  });
}
