/**
 * The agent-brain operations of the third slice (src/shared/api/ops/agent-runs.ts, docs/AGENTS.md
 * [G7]–[G10]): the brain served to an agent's run, comparing two versions, effectiveness and the
 * trend, sharing. Who may: reading an agent needs its scope to be visible; comparing needs the
 * member to be able to write there; sharing is the local admin's (src/engine/access/local-admin.ts).
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  AgentsBrain,
  AgentsCompare,
  AgentsEffectiveness,
  AgentsShare,
} from '#shared/api/ops/agent-runs.ts';
import { AppError } from '#shared/errors.ts';
import { assertLocalAdmin } from '../access/local-admin.ts';
import { type AgentRow, getAgentById, getVersion, listVersions, readableAgent } from '../agents/agents.ts';
import { effectiveness } from '../agents/effectiveness.ts';
import { comparisonOf, newRunMount, serveBrain } from '../agents/mount.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { assertCanWrite, parseScope } from '../scope.ts';
import { resendVersions } from '../sync/agent-records.ts';
import type { CommandContext } from './types.ts';

function writableAgent(engine: Engine, name: string): AgentRow {
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, name);
  assertCanWrite(engine.db, engine.user, agent.scope);
  return agent;
}

/** [G7] The brain this run is served; the version is remembered in the run's mount. */
async function agentsBrain(ctx: CommandContext): Promise<OutputOf<typeof AgentsBrain>> {
  const { engine, agent } = ctx;
  if (!agent)
    throw new AppError('validation-failed', 'agents.brain: only an agent’s MCP server serves its brain.');
  agent.mount ??= newRunMount();
  const mounted = serveBrain(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user, agent: agent.name, run: agent.run },
    agent.mount,
  );
  return mounted
    ? { agent: mounted.agent, version: mounted.version, brain: mounted.brain }
    : { agent: agent.name, version: null, brain: null };
}

/** [G9] Sets (or clears) the comparison of two existing versions. */
async function agentsCompare(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsCompare>,
): Promise<OutputOf<typeof AgentsCompare>> {
  const { engine } = ctx;
  const agent = writableAgent(engine, input.agent);
  const at = new Date().toISOString();
  const set = engine.db.prepare(
    `UPDATE agents SET compare_a = ?, compare_b = ?, compare_split = ?, compare_since = ?, updated_at = ?
     WHERE id = ?`,
  );
  if (input.off) {
    writeTx(engine.db, () => set.run(null, null, null, null, at, agent.id));
    return { agent: agent.name, comparison: null };
  }
  const [a, b] = input.versions as [number, number];
  for (const n of [a, b]) {
    if (!getVersion(engine.db, agent, n)) {
      const known = listVersions(engine.db, agent)
        .map((v) => v.number)
        .reverse();
      throw new AppError(
        'not-found',
        `agents.compare: versions: ${agent.name} has no version ${n} (${known.length ? `versions: ${known.join(', ')}` : 'no versions yet'}).`,
      );
    }
  }
  const split = input.split ?? 50;
  writeTx(engine.db, () => set.run(a, b, split, at, at, agent.id));
  const row = getAgentById(engine.db, agent.id) as AgentRow;
  return { agent: agent.name, comparison: comparisonOf(row) };
}

/** [G8] Runs, rate, thumbs and cost per version, the trend, cost per week, the comparison. */
async function agentsEffectiveness(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsEffectiveness>,
): Promise<OutputOf<typeof AgentsEffectiveness>> {
  const { engine } = ctx;
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  return effectiveness(engine.db, agent, engine.scopes());
}

/** [G10] Moves the agent's brain to another scope: the local admin only, checked before anything is read. */
async function agentsShare(
  ctx: CommandContext,
  input: ParsedInputOf<typeof AgentsShare>,
): Promise<OutputOf<typeof AgentsShare>> {
  const { engine } = ctx;
  assertLocalAdmin(engine, "Sharing an agent's brain is for the local admin only");
  const scope = parseScope(input.scope);
  const agent = readableAgent(engine.db, engine.workspaceId, engine.user, input.agent);
  const [kind, id] = scope.split(':') as [string, string | undefined];
  if (kind === 'team' && !engine.db.prepare('SELECT 1 FROM teams WHERE id = ?').get(id))
    throw new AppError('not-found', `agents.share: scope: no team "${id}" (\`brain team list\` shows them).`);
  if (kind === 'user' && !engine.db.prepare('SELECT 1 FROM users WHERE id = ?').get(id))
    throw new AppError('not-found', `agents.share: scope: no member "${id}" in this workspace.`);
  writeTx(engine.db, () => {
    engine.db
      .prepare('UPDATE agents SET scope = ?, updated_at = ? WHERE id = ?')
      .run(scope, new Date().toISOString(), agent.id);
    // Its versions travel in its scope: each is sent again in the new one ([G12]).
    resendVersions(engine.db, agent.id);
  });
  return { agent: agent.name, scope, previous: agent.scope };
}

/**
 * [G10] A person names a run for feedback only when they can see it, as `brain runs` lists them:
 * their own, or any for the local admin. Another's run looks the same as none.
 */
export function assertRunVisible(engine: Engine, run: string): void {
  const row = engine.db
    .prepare('SELECT user_id FROM runs WHERE id = ? AND workspace_id = ?')
    .get(run, engine.workspaceId) as { user_id: string } | undefined;
  let visible = row?.user_id === engine.user;
  if (row && !visible) {
    try {
      assertLocalAdmin(engine);
      visible = true;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'forbidden') throw err;
    }
  }
  if (!visible)
    throw new AppError(
      'validation-failed',
      `observations.add: run: no run "${run.slice(0, 100)}" that you can see (\`brain runs\` lists them).`,
    );
}

export const agentRunHandlers = {
  'agents.brain': agentsBrain,
  'agents.compare': agentsCompare,
  'agents.effectiveness': agentsEffectiveness,
  'agents.share': agentsShare,
};
