/** Search, read and the read injection, as every surface runs them (src/shared/api/ops/retrieval.ts). */

import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { ContextGet, ItemsRead, SearchQuery } from '#shared/api/ops/retrieval.ts';
import { SEARCH_K_DEFAULT } from '#shared/constants.ts';
import { brainBlock, serveBrain } from '../agents/mount.ts';
import { inject } from '../search/injection.ts';
import type { CommandContext } from './types.ts';

export async function searchQuery(
  ctx: CommandContext,
  input: ParsedInputOf<typeof SearchQuery>,
): Promise<OutputOf<typeof SearchQuery>> {
  // The surface's schema already capped k; maxK repeats it for the engine's own guard.
  const k = input.k ?? SEARCH_K_DEFAULT;
  return ctx.engine.search(input.query, { k, maxK: k });
}

export async function itemsRead(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ItemsRead>,
): Promise<OutputOf<typeof ItemsRead>> {
  const from = input.from_line;
  const range = from === undefined ? undefined : { from, to: input.to_line ?? Number.MAX_SAFE_INTEGER };
  return ctx.engine.read(input.id, range);
}

export async function contextGet(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ContextGet>,
): Promise<OutputOf<typeof ContextGet>> {
  // A run's first answer holds the agent's brain, within the same cap (docs/AGENTS.md [G7]).
  const { engine, agent } = ctx;
  const mount = agent?.mount;
  const first = mount !== undefined && !mount.contextAnswered;
  if (mount) mount.contextAnswered = true;
  const mounted =
    first && agent
      ? serveBrain(
          engine.db,
          { workspaceId: engine.workspaceId, user: engine.user, agent: agent.name, run: agent.run },
          mount,
        )
      : null;
  const out = await inject(engine, {
    message: input.message,
    anchors: input.anchors,
    surface: ctx.surface === 'app' ? 'chat' : ctx.surface,
    brain: mounted ? brainBlock(mounted) : undefined,
  });
  return {
    reason: out.reason,
    semantic: out.semantic,
    floor: out.floor,
    tokens: out.tokens,
    boundary: out.boundary,
    anchors: out.anchors,
    items: out.items.map(({ body: _body, ...item }) => item),
    context: out.text,
    ...(mounted && out.brain
      ? { agentBrain: { agent: mounted.agent, version: mounted.version, ...out.brain } }
      : {}),
  };
}
