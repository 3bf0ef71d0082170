/**
 * One write-back pass per run (DESIGN.md section 8), fire and forget.
 *
 * - Claimed once: the pass row is keyed by the run id and the claim is one IMMEDIATE transaction
 *   (run still pending → pass row inserted → run marked running), so two processes, or a run that
 *   ends twice, never get two passes. A pass left `running` by a process that died is taken over
 *   once its lease runs out: nothing of it was written (see below), so this is still one pass.
 * - Nothing is written until the writer has finished: proposals are collected in memory, then the
 *   gate's decisions, the proposal rows and the notes written straight in land in one transaction.
 *   A model failure or timeout mid-pass therefore changes nothing; it is recorded on the pass
 *   (failed, with the error) and logged.
 * - Without a model the run stays pending ("write-back is off") and is picked up once one is set.
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { actorUnder } from '../../shared/ids.ts';
import { type Db, writeTx } from '../db/driver.ts';
import type { Embedder } from '../embed/index.ts';
import { type ModelAccess, offReason, readModelConfig, resolveModel } from '../llm/config.ts';
import { upsertNote } from '../notes.ts';
import { visibleScopes } from '../scope.ts';
import { search } from '../search/search.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { userExists } from '../workspace.ts';
import { type GateDecision, gate, type Proposal } from './gate.ts';
import { runWriter, type WriterPassage } from './writer.ts';

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
  | { state: 'failed'; run: string; error: string }
  | {
      state: 'done';
      run: string;
      offered: number;
      decisions: (GateDecision & { id: string; label: string })[];
    };

type RunRow = {
  id: string;
  user_id: string;
  agent: string;
  status: string;
  work_products: string;
  writeback_state: string;
};

const LEASE_MS = 30 * 60_000;
const OWNER = `${hostname()}:${process.pid}`;

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
export function claimRun(db: Db, runId: string, model: string): RunRow | string {
  return writeTx(db, () => {
    const run = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined;
    if (!run) return `no run ${runId}`;
    if (run.status !== 'succeeded' && run.status !== 'blocked') return `the run ${run.status}: no write-back`;
    const pass = db.prepare('SELECT state, lease_until FROM writeback_passes WHERE run_id = ?').get(runId) as
      | { state: string; lease_until: number | null }
      | undefined;
    const now = new Date().toISOString();
    if (pass) {
      const stale = pass.state === 'running' && (pass.lease_until ?? 0) < Date.now();
      if (!stale) return `the run already had its write-back pass (${pass.state})`;
      db.prepare(
        `UPDATE writeback_passes SET owner = ?, lease_until = ?, attempts = attempts + 1, started_at = ?, model = ?
         WHERE run_id = ?`,
      ).run(OWNER, Date.now() + LEASE_MS, now, model, runId);
    } else {
      if (run.writeback_state !== 'pending') return `the run's write-back is ${run.writeback_state}`;
      db.prepare(
        `INSERT INTO writeback_passes (run_id, state, owner, lease_until, model, started_at)
         VALUES (?, 'running', ?, ?, ?, ?)`,
      ).run(runId, OWNER, Date.now() + LEASE_MS, model, now);
    }
    db.prepare("UPDATE runs SET writeback_state = 'running', updated_at = ? WHERE id = ?").run(now, runId);
    return run;
  });
}

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
  options: { access?: ModelAccess | null; timeoutMs?: number } = {},
): Promise<PassResult> {
  const access = options.access === undefined ? await resolveModel(deps.db, deps.home) : options.access;
  if (!access) {
    return { state: 'off', run: runId, reason: `write-back is off: ${offReason(readModelConfig(deps.db))}` };
  }
  const claimed = claimRun(deps.db, runId, access.model);
  if (typeof claimed === 'string') return { state: 'not-claimed', run: runId, reason: claimed };
  const run = claimed;
  const user = run.user_id && userExists(deps.db, run.user_id) ? run.user_id : null;
  let written: Awaited<ReturnType<typeof runWriter>>;
  try {
    written = await runWriter(access, {
      workProducts: run.work_products,
      agent: run.agent,
      status: run.status,
      user,
      search: (q) => searchPassages(deps, user ?? '', q),
      timeoutMs: options.timeoutMs,
    });
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    finishFailed(deps.db, runId, error);
    logEvent(deps.db, deps.surface, run.user_id, 'writeback', {
      run: runId,
      ok: false,
      error,
      summary: `write-back of run ${runId} failed, nothing written: ${error}`,
    });
    return { state: 'failed', run: runId, error };
  }
  const decisions = await applyDecisions(deps, run, user, written.proposals);
  logEvent(deps.db, deps.surface, run.user_id, 'writeback', {
    run: runId,
    ok: true,
    offered: written.offered,
    steps: written.steps,
    decisions: decisions.map((d) => ({ id: d.id, decision: d.decision, reason: d.reason, scope: d.scope })),
    summary: `write-back of run ${runId}: ${decisions.length} proposal${decisions.length === 1 ? '' : 's'} (${count(decisions, 'write')} written, ${count(decisions, 'review')} to review, ${count(decisions, 'skip')} skipped)`,
  });
  return { state: 'done', run: runId, offered: written.offered, decisions };
}

function count(ds: readonly { decision: string }[], d: string): number {
  return ds.filter((x) => x.decision === d).length;
}

function finishFailed(db: Db, runId: string, error: string): void {
  writeTx(db, () => {
    db.prepare(
      `UPDATE writeback_passes SET state = 'failed', error = ?, lease_until = NULL, finished_at = ? WHERE run_id = ?`,
    ).run(error.slice(0, 2000), new Date().toISOString(), runId);
    db.prepare("UPDATE runs SET writeback_state = 'done', updated_at = ? WHERE id = ?").run(
      new Date().toISOString(),
      runId,
    );
  });
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
): Promise<(GateDecision & { id: string; label: string })[]> {
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
  writeTx(deps.db, () => {
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
    deps.db
      .prepare(
        `UPDATE writeback_passes SET state = 'done', lease_until = NULL, finished_at = ?, proposed = ?, written = ?,
           reviewed = ?, skipped = ? WHERE run_id = ?`,
      )
      .run(
        now,
        decided.length,
        count(
          decided.map((x) => x.d),
          'write',
        ),
        count(
          decided.map((x) => x.d),
          'review',
        ),
        count(
          decided.map((x) => x.d),
          'skip',
        ),
        run.id,
      );
    deps.db.prepare("UPDATE runs SET writeback_state = 'done', updated_at = ? WHERE id = ?").run(now, run.id);
  });
  return decided.map((x) => ({ ...x.d, id: x.id, label: x.p.label }));
}

/** Works every pending run once (the host's loop, `brain runs --process`). */
export async function runPendingWritebacks(
  deps: WritebackDeps,
  options: { access?: ModelAccess | null; timeoutMs?: number } = {},
): Promise<PassResult[]> {
  const access = options.access === undefined ? await resolveModel(deps.db, deps.home) : options.access;
  if (!access) return [];
  const out: PassResult[] = [];
  for (const id of pendingRuns(deps.db)) out.push(await runWritebackPass(deps, id, { ...options, access }));
  return out;
}

/** Fire and forget: the run's pass in the background of this process (an MCP server's run end). */
export function writebackInBackground(deps: WritebackDeps, runId: string): void {
  void runWritebackPass(deps, runId).catch((err: unknown) =>
    logEvent(deps.db, deps.surface, 'system', 'writeback', {
      run: runId,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
    }),
  );
}
