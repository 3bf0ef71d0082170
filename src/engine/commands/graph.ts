/**
 * mentions.observe, links.add, graph.neighborhood and runs.end (src/shared/api/ops/graph.ts), as
 * every surface runs them. The scope rules live in src/engine/knowledge/graph.ts (an item, an end or a
 * neighbor the caller cannot see is not found; a neighborhood never shows an edge to a hidden
 * end); the run's rules in src/engine/writeback/run-end.ts. Writes carry the caller's origin: the
 * member's own on the app and the command line, `agent:<name>/user:<user>` for an agent.
 */
import type { z } from 'zod';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  EdgeViewSchema,
  GraphNeighborhood,
  ItemViewSchema,
  LinksAdd,
  MentionsObserve,
  RunsEnd,
} from '#shared/api/ops/graph.ts';
import { AppError } from '#shared/errors.ts';
import { versionAtRunEnd } from '../agents/mount.ts';
import { writeTx } from '../db/driver.ts';
import { vectorFor } from '../embed/vector-for.ts';
import type { Engine } from '../engine.ts';
import {
  type EdgeView,
  type ItemView,
  linkItems,
  type MentionResult,
  type Neighborhood,
  neighborhood,
  observeMention,
  spanText,
} from '../knowledge/graph.ts';
import { getRow, vecUpsert } from '../read/items.ts';
import { handOffWriteback, type RunRecord, recordRunEnd } from '../writeback/run-end.ts';
import type { CommandContext } from './types.ts';

/** A new entity is found by meaning too once the model is on (keyword search finds it either way). */
async function embedEntity(engine: Engine, entity: ItemView): Promise<void> {
  const vector = await vectorFor(engine, `${entity.label}\n${entity.label}`);
  if (!vector) return;
  writeTx(engine.db, () => {
    const row = getRow(engine.db, entity.id);
    if (row) vecUpsert(engine.db, row, vector.model, vector.vector);
  });
}

export async function mentionsObserve(
  ctx: CommandContext,
  input: ParsedInputOf<typeof MentionsObserve>,
): Promise<OutputOf<typeof MentionsObserve>> {
  const { engine } = ctx;
  const text = await spanText(engine.db, engine.blobs, input.item_id, engine.scopes());
  const result = observeMention(
    engine.db,
    engine.workspaceId,
    engine.scopes(),
    { itemId: input.item_id, name: input.name, kind: input.kind, span: input.span, quote: input.quote },
    ctx.origin,
    text,
  );
  if (result.entity.created) await embedEntity(engine, result.entity);
  return result;
}

export async function linksAdd(
  ctx: CommandContext,
  input: ParsedInputOf<typeof LinksAdd>,
): Promise<OutputOf<typeof LinksAdd>> {
  const { engine } = ctx;
  return linkItems(
    engine.db,
    engine.scopes(),
    { from: input.from_id, to: input.to_id, type: input.type, note: input.note },
    ctx.origin,
  );
}

async function graphNeighborhood(
  ctx: CommandContext,
  input: ParsedInputOf<typeof GraphNeighborhood>,
): Promise<OutputOf<typeof GraphNeighborhood>> {
  return neighborhood(ctx.engine.db, ctx.engine.scopes(), input.id, input.hops ?? 1);
}

/**
 * The agent a run the member names (on the app or the command line) belongs to: the agent that
 * ended it already, else the one agent its observations were recorded for (a script's
 * `brain observe --agent NAME --run ID`, docs/AGENTS.md [G2]), so ending it keeps it that agent's
 * run and records the version that agent read ([G7], [G8]). Null: the member's own run.
 */
function runAgentOf(engine: Engine, run: string): string | null {
  const prev = engine.db.prepare('SELECT agent, user_id FROM runs WHERE id = ?').get(run) as
    | { agent: string | null; user_id: string }
    | undefined;
  if (prev?.agent && prev.user_id === engine.user && prev.agent !== 'app' && prev.agent !== 'cli')
    return prev.agent;
  const agents = engine.db
    .prepare(
      'SELECT DISTINCT agent FROM observations WHERE workspace_id = ? AND user_id = ? AND run_id = ? AND agent IS NOT NULL LIMIT 2',
    )
    .all(engine.workspaceId, engine.user, run) as { agent: string }[];
  return agents.length === 1 ? (agents[0]?.agent ?? null) : null;
}

/**
 * An agent's run defaults to its own (the run id its `brain mcp` was started with or drew); a
 * member on the app or the command line names the run that ended.
 */
export async function runsEnd(
  ctx: CommandContext,
  input: ParsedInputOf<typeof RunsEnd>,
): Promise<OutputOf<typeof RunsEnd>> {
  const { engine, agent } = ctx;
  const run = input.run_id ?? agent?.run;
  if (!run) {
    throw new AppError('validation-failed', 'runs.end: run_id: say which run ended (its id).');
  }
  const agentName = agent?.name ?? runAgentOf(engine, run) ?? ctx.surface;
  // An agent ends runs of its own: another agent's run (the same member's) keeps its status, work
  // products and the version it read, so one agent cannot rewrite another's record
  // (docs/AGENTS.md [G2], [G7], [G8]). A run the member named on the app or the command line (its
  // `agent` is that surface) is theirs to hand to an agent, as every surface ends a run alike.
  if (agent) {
    const prev = engine.db.prepare('SELECT agent, user_id FROM runs WHERE id = ?').get(run) as
      | { agent: string | null; user_id: string }
      | undefined;
    const byMember = prev?.agent === 'app' || prev?.agent === 'cli';
    if (prev && prev.user_id === engine.user && !byMember && prev.agent !== agent.name)
      throw new AppError('conflict', `Run ${run} is another agent's run; end your own run.`);
  }
  // The version this run read (docs/AGENTS.md [G7]): what its server served it, else the one it would get.
  const read = versionAtRunEnd(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user },
    agentName,
    run,
    run === agent?.run ? agent.mount : undefined,
  );
  const record = recordRunEnd(engine.db, {
    run,
    workspaceId: engine.workspaceId,
    user: engine.user,
    agent: agentName,
    status: input.status,
    workProducts: input.work_products,
    startedAt: run === agent?.run ? agent.startedAt : null,
    brainVersion: read.version,
    brainAgent: read.agentId,
  });
  const handoff = record.writeback === 'pending' ? handOffWriteback(engine, run, ctx.surface) : null;
  return { ...record, chars: input.work_products.length, writebackBy: handoff?.by ?? null };
}

export const graphHandlers = {
  'mentions.observe': mentionsObserve,
  'links.add': linksAdd,
  'graph.neighborhood': graphNeighborhood,
  'runs.end': runsEnd,
};

/** The engine's own types stay exactly what the output schemas check. */
type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type GraphSchemaChecks = [
  Assignable<ItemView, z.infer<typeof ItemViewSchema>>,
  Assignable<EdgeView, z.infer<typeof EdgeViewSchema>>,
  Assignable<MentionResult, OutputOf<typeof MentionsObserve>>,
  Assignable<Neighborhood, OutputOf<typeof GraphNeighborhood>>,
  Assignable<RunRecord, Omit<OutputOf<typeof RunsEnd>, 'chars' | 'writebackBy'>>,
];
