/**
 * The agent-brain operations of the second slice (src/shared/api/ops/agents.ts, docs/AGENTS.md
 * [G3]–[G6]): list, show, versions, diff, rollback, synthesize, set, prune. Who may: reading an
 * agent needs its scope to be visible to the member; acting on it (rollback, synthesize, set,
 * prune) needs the member to be able to write there (src/engine/scope.ts). An agent the member
 * cannot see is not found.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  AgentsConfig,
  AgentsDiff,
  AgentsList,
  AgentsPrune,
  AgentsRollback,
  AgentsSet,
  AgentsShow,
  AgentsSynthesize,
  AgentsVersions,
} from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import {
  type AgentRow,
  activeVersion,
  costSince,
  ensureAgent,
  findAgent,
  getVersion,
  listVersions,
  movePointer,
  parseBrain,
  readableAgent,
  thresholdOf,
  toMeta,
  waitingCount,
} from '../agents/agents.ts';
import { diffBrains } from '../agents/brain-diff.ts';
import { readAgentNumbers, readPrices, writeAgentSettings } from '../agents/config.ts';
import { pruneObservations } from '../agents/prune.ts';
import { synthesizeAgent } from '../agents/synthesize.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { resolveModel } from '../llm/config.ts';
import { assertCanWrite, canSee } from '../scope.ts';
import type { CommandContext } from './types.ts';

type Summary = OutputOf<typeof AgentsList>['agents'][number];

const WEEK_MS = 7 * 86_400_000;

function summary(engine: Engine, agent: AgentRow): Summary {
  const { db } = engine;
  const versions = db
    .prepare('SELECT count(*) AS n FROM agent_brain_versions WHERE agent_id = ?')
    .get(agent.id) as { n: number };
  return {
    name: agent.name,
    tier: agent.tier,
    scope: agent.scope,
    activeVersion: agent.active_version,
    versions: versions.n,
    waiting: waitingCount(db, agent, readAgentNumbers(db).minSynthesisImportance),
    threshold: thresholdOf(agent),
    lastSynthesizedAt: agent.last_synthesized_at,
    costThisWeekUsd: costSince(db, agent, new Date(Date.now() - WEEK_MS)),
  };
}

/** The agent the member acts on: visible, and in a scope they may write. */
function writableAgent(engine: Engine, name: string): AgentRow {
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, name);
  assertCanWrite(engine.db, engine.user, agent.scope);
  return agent;
}

function versionOf(engine: Engine, agent: AgentRow, n: number, op: string) {
  const v = getVersion(engine.db, agent, n);
  if (!v) throw new AppError('not-found', `${op}: ${agent.name} has no version ${n}.`);
  return v;
}

async function agentsList(ctx: CommandContext): Promise<OutputOf<typeof AgentsList>> {
  const { engine } = ctx;
  const visible = engine.scopes();
  const names = engine.db
    .prepare('SELECT DISTINCT name FROM agents WHERE workspace_id = ? ORDER BY name')
    .all(engine.workspaceId) as { name: string }[];
  // Per name, the agent the member means by it ([G12]): their own, else one shared with them.
  const rows = names
    .map((n) => findAgent(engine.db, engine.workspaceId, engine.user, n.name))
    .filter((a): a is AgentRow => a !== undefined);
  return { agents: rows.filter((a) => canSee(visible, a.scope)).map((a) => summary(engine, a)) };
}

async function agentsShow(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsShow>,
): Promise<OutputOf<typeof AgentsShow>> {
  const { engine } = ctx;
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  const active = activeVersion(engine.db, agent);
  return {
    agent: summary(engine, agent),
    brain: active ? parseBrain(active) : null,
    version: active ? toMeta(active) : null,
  };
}

async function agentsVersions(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsVersions>,
): Promise<OutputOf<typeof AgentsVersions>> {
  const { engine } = ctx;
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  return {
    agent: agent.name,
    activeVersion: agent.active_version,
    versions: listVersions(engine.db, agent).map(toMeta),
  };
}

async function agentsDiff(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsDiff>,
): Promise<OutputOf<typeof AgentsDiff>> {
  const { engine } = ctx;
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  const from = parseBrain(versionOf(engine, agent, input.from, 'agents.diff'));
  const to = parseBrain(versionOf(engine, agent, input.to, 'agents.diff'));
  return { agent: agent.name, from: input.from, to: input.to, sections: diffBrains(from, to) };
}

async function agentsRollback(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsRollback>,
): Promise<OutputOf<typeof AgentsRollback>> {
  const { engine } = ctx;
  return writeTx(engine.db, () => {
    const agent = writableAgent(engine, input.agent);
    movePointer(engine.db, agent, input.to);
    return { agent: agent.name, activeVersion: input.to, previous: agent.active_version };
  });
}

async function agentsSynthesize(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsSynthesize>,
): Promise<OutputOf<typeof AgentsSynthesize>> {
  const { engine } = ctx;
  // No row is made here: an agent with no observation of its own has nothing to synthesize ([G3]).
  const agent = writableAgent(engine, input.agent);
  const access = await resolveModel(engine.db, engine.home);
  if (!access)
    throw new AppError(
      'unsupported',
      'agents.synthesize: synthesis needs a chat model: set one with `brain config set model.baseUrl <url>` and `brain config set model.name <name>` (or in Settings), then try again.',
    );
  return synthesizeAgent(engine.db, agent, access, {
    user: engine.user,
    force: input.force,
    signal: ctx.signal,
  });
}

async function agentsSet(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsSet>,
): Promise<OutputOf<typeof AgentsSet>> {
  const { engine } = ctx;
  const agent = writeTx(engine.db, () => {
    ensureAgent(engine.db, engine.workspaceId, input.agent, `user:${engine.user}`, engine.user);
    const row = writableAgent(engine, input.agent);
    engine.db
      .prepare('UPDATE agents SET tier = ?, updated_at = ? WHERE id = ?')
      .run(input.tier, new Date().toISOString(), row.id);
    return readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  });
  return { agent: summary(engine, agent) };
}

/** [G4] [G5] The price table and pruning numbers: written when given, answered as they now stand. */
async function agentsConfig(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsConfig>,
): Promise<OutputOf<typeof AgentsConfig>> {
  const { db } = ctx.engine;
  writeTx(db, () =>
    writeAgentSettings(db, {
      prices: input.prices,
      minSynthesisImportance: input.min_synthesis_importance,
      pruneImportance: input.prune_importance,
      staleDays: input.stale_days,
    }),
  );
  return { prices: readPrices(db), ...readAgentNumbers(db) };
}

async function agentsPrune(ctx: CommandContext): Promise<OutputOf<typeof AgentsPrune>> {
  const { engine } = ctx;
  return pruneObservations(engine.db, engine.workspaceId, engine.user);
}

export const brainHandlers = {
  'agents.list': agentsList,
  'agents.show': agentsShow,
  'agents.versions': agentsVersions,
  'agents.diff': agentsDiff,
  'agents.rollback': agentsRollback,
  'agents.synthesize': agentsSynthesize,
  'agents.set': agentsSet,
  'agents.prune': agentsPrune,
  'agents.config': agentsConfig,
};
