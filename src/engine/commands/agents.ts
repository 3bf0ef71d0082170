/**
 * The agent-brain operations (src/shared/api/ops/agents.ts), as every surface runs them; the rules
 * live in src/engine/agents/observations.ts (docs/AGENTS.md [G1], [G2]). Who observes comes from
 * the call's context, never from its input: on the agent surface the MCP server's agent and run, on
 * the command line the script's --agent and --run; otherwise a person, with no agent.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { ObservationsAdd, ObservationsList } from '#shared/api/ops/agents.ts';
import { listObservations, observe } from '../agents/observations.ts';
import { brainHandlers } from './agent-brains.ts';
import { assertRunVisible } from './agent-runs.ts';
import type { CommandContext } from './types.ts';

async function observationsAdd(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ObservationsAdd>,
): Promise<OutputOf<typeof ObservationsAdd>> {
  const { engine } = ctx;
  // A person's feedback may name a run they can see (docs/AGENTS.md [G10]); an agent's run is its own.
  const personRun = ctx.agent ? null : (input.run ?? null);
  if (personRun !== null) assertRunVisible(engine, personRun);
  const observation = observe(
    engine.db,
    {
      workspaceId: engine.workspaceId,
      user: engine.user,
      agent: ctx.agent?.name ?? null,
      // A script's agent without --run has no run (src/cli/commands/observe.ts).
      run: ctx.agent ? ctx.agent.run || null : personRun,
    },
    input,
  );
  return { observation };
}

async function observationsList(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ObservationsList>,
): Promise<OutputOf<typeof ObservationsList>> {
  const { engine } = ctx;
  return listObservations(engine.db, engine.workspaceId, engine.scopes(), {
    agent: input.agent,
    type: input.type,
    minImportance: input.min_importance,
    unsynthesized: input.unsynthesized,
    limit: input.limit,
    offset: input.offset,
  });
}

export const agentHandlers = {
  'observations.add': observationsAdd,
  'observations.list': observationsList,
  ...brainHandlers,
};
