/**
 * The compile pass with a chat model (docs/FACTS.md [K9]–[K11]), per source: extract (one model
 * call), resolve (among the faces the source's readers can read), judge (one model call, only when
 * some name has candidates and no exact match), then write (one transaction). Every model call is
 * made before anything is written, so a model that fails at any step (HTTP error, timeout, a reply
 * that is not the JSON asked for) changes nothing: the pass is recorded as failed and logged. A
 * source whose content hash equals its last done pass is skipped without a model call unless forced.
 *
 * A pass is claimed in the database first (src/engine/compile/claim.ts, [K11]): a source another
 * process is compiling is skipped as busy. The claim's lease is held while the model calls run, and
 * `signal` (a host closing) or losing the claim aborts them: a stopped pass writes nothing, not
 * even its failure, and gives its claim back.
 */
import { type Db, writeTx } from '../db/driver.ts';
import { holdLease, type Lease } from '../jobs/jobs-lease.ts';
import type { ModelAccess } from '../llm/config.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { claimSource, dropClaim, holdsSource, sourceLeaseHooks } from './claim.ts';
import { extract } from './extract.ts';
import { judge } from './judge.ts';
import { resolveEntities } from './resolve.ts';
import { type CompileSource, lastPass, loadSource } from './source.ts';
import { type WriteCounts, writeCompile } from './write.ts';

export { compileRefusal, isTreeDocument, pendingSources } from './source.ts';

export type CompileDeps = { db: Db; workspaceId: string; surface: Surface; user: string };

export type CompileOutcome = WriteCounts & {
  id: string;
  label: string;
  storageKind: 'file' | 'note';
  /**
   * done; skipped (same content as its last done pass); stale (changed while compiling: compiled
   * again later); busy (being compiled by another process, [K11]); failed.
   */
  state: 'done' | 'skipped' | 'stale' | 'busy' | 'failed';
  /** Facts the model gave that were left out (their quote is not in the source, or their entity is not named). */
  dropped: number;
  /** Part of the source was over what one call is shown. */
  truncated: boolean;
  error: string | null;
};

const NOTHING: WriteCounts = { facts: 0, added: 0, kept: 0, retired: 0, entities: 0, cards: 0 };

/** What a busy outcome says ([K11]). */
const BUSY = 'being compiled by another process';
const STOPPED = 'stopped before it finished: nothing was written';

/** Records the failure while the claim `token` is still the pass's, and gives the claim back ([K11]). */
function recordFailed(db: Db, source: CompileSource, model: string, error: string, token: string): void {
  try {
    writeTx(db, () => {
      if (!holdsSource(db, source.row.id, token)) return;
      recordFailedRow(db, source, model, error);
      dropClaim(db, source.row.id, token);
    });
  } catch {
    // The workspace is busy or closing: the pass stays unrecorded and is tried again later.
  }
}

function recordFailedRow(db: Db, source: CompileSource, model: string, error: string): void {
  db.prepare(
    `INSERT INTO compile_passes (source_id, version, content_hash, model, state, error, at)
     VALUES (?, ?, ?, ?, 'failed', ?, ?)
     ON CONFLICT (source_id) DO UPDATE SET version = excluded.version, content_hash = excluded.content_hash,
       model = excluded.model, state = 'failed', facts = 0, entities = 0, cards = 0, error = excluded.error,
       at = excluded.at`,
  ).run(
    source.row.id,
    source.row.version,
    source.hash,
    model,
    error.slice(0, 1000),
    new Date().toISOString(),
  );
}

function summary(o: CompileOutcome): string {
  if (o.state === 'failed') return `compile of ${o.label} failed: ${o.error}`;
  if (o.state === 'stale') return `compile of ${o.label} dropped: the source changed meanwhile`;
  if (o.state === 'busy') return `compile of ${o.label} skipped: ${BUSY}`;
  const cards = o.cards ? `, ${o.cards} possible duplicate${o.cards === 1 ? '' : 's'}` : '';
  return `compile of ${o.label}: ${o.facts} facts on ${o.entities} entities (${o.added} new, ${o.retired} retired)${cards}`;
}

type Base = Omit<CompileOutcome, 'state'>;

/** The model calls and the write, under the claim `token` held by `lease`. */
async function compileClaimed(
  deps: CompileDeps,
  access: ModelAccess,
  source: CompileSource,
  base: Base,
  claim: { token: string; lease: Lease; timeoutMs?: number },
): Promise<CompileOutcome> {
  const step = { timeoutMs: claim.timeoutMs, signal: claim.lease.signal };
  const extraction = await extract(access, source, step);
  const resolved = resolveEntities(deps.db, source.scopes, source.row.scope, extraction.entities);
  const decisions = await judge(access, resolved, step);
  const written = writeCompile(deps, source, decisions, access.model, claim.token);
  claim.lease.end(); // the write transaction deleted the claim, or it was not this pass's any more
  if (written.state === 'busy') return { ...base, state: 'busy', error: BUSY };
  const counts = written.state === 'done' ? written : NOTHING;
  return {
    ...base,
    ...counts,
    state: written.state,
    dropped: extraction.dropped,
    truncated: extraction.truncated,
  };
}

function logOutcome(deps: CompileDeps, outcome: CompileOutcome): void {
  logEvent(deps.db, deps.surface, deps.user, 'compile', {
    source: outcome.id,
    label: outcome.label,
    state: outcome.state,
    facts: outcome.facts,
    added: outcome.added,
    retired: outcome.retired,
    entities: outcome.entities,
    cards: outcome.cards,
    error: outcome.error,
    summary: summary(outcome),
  });
}

/**
 * Compiles one source the caller may compile (src/engine/compile/source.ts `compileRefusal`).
 * `signal` stops it: the model call in flight is aborted and nothing is written ([K11]).
 */
export async function compileSource(
  deps: CompileDeps,
  access: ModelAccess,
  id: string,
  options: { force?: boolean; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CompileOutcome | null> {
  const source = loadSource(deps.db, id);
  if (!source) return null;
  const base: Base = {
    id,
    label: source.row.label,
    storageKind: source.row.storage_kind as 'file' | 'note',
    dropped: 0,
    truncated: false,
    error: null,
    ...NOTHING,
  };
  const last = lastPass(deps.db, id);
  if (!options.force && last?.state === 'done' && last.content_hash === source.hash) {
    // Same content under a new version number (a note saved unchanged): only the record follows.
    if (last.version !== source.row.version)
      deps.db
        .prepare('UPDATE compile_passes SET version = ? WHERE source_id = ?')
        .run(source.row.version, id);
    return { ...base, state: 'skipped', facts: last.facts, entities: last.entities, cards: last.cards };
  }
  if (options.signal?.aborted) return { ...base, state: 'failed', error: STOPPED };
  const token = claimSource(deps.db, id);
  if (!token) return { ...base, state: 'busy', error: BUSY };
  const lease = holdLease(token, sourceLeaseHooks(deps.db, id, token), {
    group: deps.db,
    signal: options.signal,
  });
  let outcome: CompileOutcome;
  try {
    outcome = await compileClaimed(deps, access, source, base, {
      token,
      lease,
      timeoutMs: options.timeoutMs,
    });
  } catch (err) {
    if (lease.signal.aborted) {
      // Stopped (the host closes) or taken over: nothing is written, the claim is given back.
      lease.release();
      if (options.signal?.aborted) return { ...base, state: 'failed', error: STOPPED };
      return { ...base, state: 'busy', error: BUSY };
    }
    const error = err instanceof Error ? err.message : String(err);
    recordFailed(deps.db, source, access.model, error, token);
    lease.release(); // gives the claim back if recording it failed (the workspace was busy)
    outcome = { ...base, state: 'failed', error };
  }
  logOutcome(deps, outcome);
  return outcome;
}
