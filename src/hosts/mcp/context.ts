/**
 * What every tool call knows: the engine (acting as one user, surface 'agent'), the agent's name
 * and the run id that go into origin. Origin of agent writes: `origin_actor` is
 * `agent:<name>/user:<user>` (which agent, acting for whom), `origin_source` is `agent-tool`,
 * `origin_run` is the run id.
 */
import { randomUUID } from 'node:crypto';
import { newRunMount, type RunMount } from '#engine/agents/mount.ts';
import type { Engine } from '#engine/engine.ts';
import { agentNameProblem } from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';

export type AgentContext = {
  engine: Engine;
  run: string;
  startedAt: string;
  /** The agent's name: --agent, else the MCP client's clientInfo name, else `mcp-client`. */
  agentName(): string;
  /** Result summaries tool handlers leave for the telemetry line of their request. */
  results: Map<string | number, Record<string, unknown>>;
  /** The brain version served to this run, and whether brain_context answered yet (docs/AGENTS.md [G7]). */
  mount: RunMount;
};

const NAME_RE = /[^A-Za-z0-9._-]+/g;

function cleanAgentName(name: string | undefined): string | undefined {
  const clean = (name ?? '')
    .replace(NAME_RE, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return clean || undefined;
}

/**
 * The name `--agent` gives, as the server will run under it; `app` and `cli` are refused (they mark
 * a run a member ended, docs/AGENTS.md [G2]).
 */
export function fixedAgentName(agent: string | undefined): string | undefined {
  const fixed = cleanAgentName(agent);
  const problem = fixed === undefined ? null : agentNameProblem(fixed);
  if (problem) throw new AppError('validation-failed', `--agent: ${problem}.`);
  return fixed;
}

/** The MCP client's name, unless it is a reserved one ([G2]): then the default name. */
function clientAgentName(name: string | undefined): string | undefined {
  const clean = cleanAgentName(name);
  return clean !== undefined && agentNameProblem(clean) ? undefined : clean;
}

function newRunId(): string {
  return `run-${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
}

export function createAgentContext(
  engine: Engine,
  options: { agent?: string; run?: string; clientName: () => string | undefined },
): AgentContext {
  const fixed = fixedAgentName(options.agent);
  return {
    engine,
    run: options.run?.trim() || newRunId(),
    startedAt: new Date().toISOString(),
    agentName: () => fixed ?? clientAgentName(options.clientName()) ?? 'mcp-client',
    results: new Map(),
    mount: newRunMount(),
  };
}

export function originOf(ctx: AgentContext): { actor: string; source: string; run: string } {
  return { actor: `agent:${ctx.agentName()}/user:${ctx.engine.user}`, source: 'agent-tool', run: ctx.run };
}
