/**
 * One synthesis of an agent's brain (docs/AGENTS.md [G3], [G4]): due rule, claim, model, checked
 * reply, then ONE transaction that inserts the version (number max+1, parent the active one),
 * marks the agent's fed observations synthesized (people's stay unmarked: every agent reads them),
 * moves the pointer and sets when it was synthesized. A model failure, a timeout, a reply that is
 * not a brain, or an empty brain where a populated one is active changes nothing: it is logged,
 * the claim is given back and the outcome says why. Pruning ([G5]) runs after a synthesis wrote.
 */
import { AppError } from '#shared/errors.ts';
import { type Db, writeTx } from '../db/driver.ts';
import { brainVersionId } from '../ids.ts';
import { holdLease } from '../jobs/jobs-lease.ts';
import { completeWithUsage } from '../llm/client.ts';
import type { ModelAccess } from '../llm/config.ts';
import {
  type AgentRow,
  getAgentById,
  getVersion,
  thresholdOf,
  toMeta,
  type VersionMeta,
  waitingCount,
} from './agents.ts';
import { type Brain, BrainSchema, dropUncited, entryCount } from './brain-schema.ts';
import { estimateCost, readAgentNumbers, readPrices, SYNTHESIS } from './config.ts';
import { pruneObservations } from './prune.ts';
import { claimSynthesis, holdsSynthesis, synthesisLeaseHooks } from './synthesis-claim.ts';
import { allowedIds, gatherInput, type SynthesisInput, synthesisMessages } from './synthesis-input.ts';

export type SynthesisOutcome = {
  agent: string;
  state: 'synthesized' | 'skipped' | 'failed';
  reason: string | null;
  version: VersionMeta | null;
  /** Entries of the reply dropped for citing an id the synthesis was not given. */
  dropped: number;
  /** Observations pruned after it ([G5]). */
  pruned: number;
};

export type SynthesisOptions = {
  /** The member synthesizing (created_by) and whose writable scopes pruning covers. */
  user: string;
  force?: boolean;
  now?: () => Date;
  /** Aborts the model call (a host closing): the claim is given back. */
  signal?: AbortSignal;
  timeoutMs?: number;
};

/** Why the agent is not due now ([G3]), or null when it is: enough new observations, an hour since. */
export function notDueReason(db: Db, agent: AgentRow, now: Date): string | null {
  const waiting = waitingCount(db, agent, readAgentNumbers(db).minSynthesisImportance);
  const threshold = thresholdOf(agent);
  if (waiting < threshold)
    return `not due: ${waiting} of ${threshold} new observations for tier ${agent.tier}`;
  if (agent.last_synthesized_at !== null) {
    const since = now.getTime() - Date.parse(agent.last_synthesized_at);
    if (since < SYNTHESIS.minIntervalMs)
      return `not due: last synthesized ${Math.floor(since / 60_000)} min ago (at most once an hour)`;
  }
  return null;
}

/** How a synthesis with nothing to read is refused (an error when forced, [G3]). */
const NOTHING = 'nothing to synthesize';

function outcome(agent: string, state: SynthesisOutcome['state'], reason: string | null): SynthesisOutcome {
  return { agent, state, reason, version: null, dropped: 0, pruned: 0 };
}

/** The JSON object of a reply: the whole text, or the text inside one ```json fence. */
function parseBrainReply(text: string): Brain | string {
  const t = text.trim();
  const body = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(t)?.[1] ?? t;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return `the model's reply is not JSON (${JSON.stringify(t.slice(0, 80))})`;
  }
  const parsed = BrainSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `the model's reply is not a brain: ${issue?.path.join('.') || 'reply'}: ${issue?.message ?? 'invalid'}`;
  }
  return parsed.data;
}

type Written = { version: VersionMeta } | { lost: true };

function writeVersion(
  db: Db,
  agent: AgentRow,
  token: string,
  input: SynthesisInput,
  reply: { brain: Brain; model: string; usage: { input: number; output: number; cached: number } | null },
  user: string,
  now: Date,
): Written {
  return writeTx(db, () => {
    if (!holdsSynthesis(db, agent.id, token)) return { lost: true };
    const fresh = getAgentById(db, agent.id) as AgentRow;
    const max = db
      .prepare('SELECT max(number) AS n FROM agent_brain_versions WHERE agent_id = ?')
      .get(agent.id) as { n: number | null };
    const number = (max.n ?? 0) + 1;
    const ids = [...input.own, ...input.human].map((o) => o.id);
    const at = now.toISOString();
    db.prepare(
      `INSERT INTO agent_brain_versions (id, workspace_id, agent_id, agent, number, parent, brain, observation_ids,
         model, input_tokens, output_tokens, cached_tokens, cost_usd, created_at, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      brainVersionId(agent.workspace_id, agent.id, number),
      agent.workspace_id,
      agent.id,
      agent.name,
      number,
      fresh.active_version,
      JSON.stringify({ ...reply.brain, version: number }),
      JSON.stringify(ids),
      reply.model,
      reply.usage?.input ?? null,
      reply.usage?.output ?? null,
      reply.usage?.cached ?? null,
      estimateCost(readPrices(db), reply.model, reply.usage),
      at,
      user,
    );
    const mark = db.prepare(
      'UPDATE observations SET synthesized_at = ?, synthesized_version = ? WHERE id = ? AND synthesized_at IS NULL',
    );
    for (const o of input.own) mark.run(at, number, o.id);
    db.prepare(
      `UPDATE agents SET active_version = ?, last_synthesized_at = ?, human_until = ?, synthesis_owner = NULL,
         synthesis_lease_until = NULL, updated_at = ? WHERE id = ?`,
    ).run(number, input.cutoff, input.humanUntil, at, agent.id);
    return { version: toMeta(getVersion(db, agent, number) as NonNullable<ReturnType<typeof getVersion>>) };
  });
}

/**
 * Synthesizes the agent's brain when it is due (or `force`d): see the module header. The caller
 * has checked that the member may write in the agent's scope.
 */
export async function synthesizeAgent(
  db: Db,
  target: Pick<AgentRow, 'id' | 'name' | 'workspace_id'>,
  access: ModelAccess,
  options: SynthesisOptions,
): Promise<SynthesisOutcome> {
  const { name, workspace_id: workspaceId } = target;
  const now = options.now ?? (() => new Date());
  const { minSynthesisImportance } = readAgentNumbers(db);
  const claim = claimSynthesis(db, target.id, (agent) => {
    const at = now();
    if (!options.force) {
      const why = notDueReason(db, agent, at);
      if (why) return why;
    }
    const input = gatherInput(db, agent, minSynthesisImportance, at);
    if (input.own.length + input.human.length === 0)
      return `${NOTHING}: ${name} has no new observations of importance ≥ ${minSynthesisImportance} and no people's observations since its last synthesis`;
    return input;
  });
  if ('refused' in claim) {
    if (options.force && claim.refused.startsWith(NOTHING))
      throw new AppError('refused', `agents.synthesize: ${claim.refused}.`);
    return outcome(name, 'skipped', claim.refused);
  }
  const { token, agent, value: input } = claim;
  const lease = holdLease(token, synthesisLeaseHooks(db, target.id, token), {
    group: db,
    signal: options.signal,
  });
  const fail = (reason: string): SynthesisOutcome => {
    console.error(`[agents] synthesis of ${name} changed nothing: ${reason}`);
    lease.release();
    return outcome(name, 'failed', reason);
  };
  let reply: Awaited<ReturnType<typeof completeWithUsage>>;
  try {
    reply = await completeWithUsage(access, synthesisMessages(agent, input), {
      timeoutMs: options.timeoutMs ?? SYNTHESIS.timeoutMs,
      signal: lease.signal,
    });
  } catch (err) {
    return fail(`the model failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = parseBrainReply(reply.text);
  if (typeof parsed === 'string') return fail(parsed);
  const { brain, dropped } = dropUncited(parsed, allowedIds(input));
  if (input.brain && entryCount(input.brain) > 0 && entryCount(brain) === 0)
    return fail(
      `the model's brain is empty${dropped ? ` (${dropped} entries cited ids it was not given)` : ''}; the populated brain v${agent.active_version} stays`,
    );
  let written: Written;
  try {
    written = writeVersion(db, agent, token, input, { ...reply, brain }, options.user, now());
  } catch (err) {
    lease.release();
    throw err;
  }
  lease.end();
  if ('lost' in written) return outcome(name, 'failed', 'the claim was taken over; nothing was written');
  let pruned = 0;
  try {
    pruned = pruneObservations(db, workspaceId, options.user, { now: now() }).pruned;
  } catch (err) {
    // The version is written; pruning runs again after the next synthesis and daily ([G5]).
    console.error(`[agents] pruning after the synthesis of ${name} failed:`, err);
  }
  return { agent: name, state: 'synthesized', reason: null, version: written.version, dropped, pruned };
}
