/**
 * What an engine command runs with: the engine (acting as one member, with their scopes), the
 * surface that called (its limits apply: src/shared/api/operation.ts) and who writes, for origin:
 * the member themselves, or an agent acting for them in a run.
 */
import type { Surface } from '#shared/api/operation.ts';
import type { Engine } from '../engine.ts';

type WriteOrigin = { actor: string; source: string; run: string | null };

export type CommandContext = {
  engine: Engine;
  surface: Surface;
  /** Who the writes of this call are by (origin of items and edges, [S26] in docs/SYNC_SPEC.md). */
  origin: WriteOrigin;
  /** On the agent surface, the agent and its run (src/hosts/mcp/context.ts): runs.end defaults to that run. */
  agent?: { name: string; run: string; startedAt: string };
};

/** A member acting on the app or the command line writes as themselves. */
export function memberContext(engine: Engine, surface: Surface): CommandContext {
  return { engine, surface, origin: { actor: engine.user, source: surface, run: null } };
}
