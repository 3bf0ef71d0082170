/**
 * items.planMove and items.move (src/shared/api/ops/items.ts), as every surface runs them: the
 * rules and the write are the engine's (src/engine/add/move.ts), recorded in Activity.
 */
import type { ParsedInputOf } from '#shared/api/operation.ts';
import type { ItemsMove, ItemsPlanMove } from '#shared/api/ops/items.ts';
import type { CommandContext } from './types.ts';

async function itemsPlanMove(ctx: CommandContext, input: ParsedInputOf<typeof ItemsPlanMove>) {
  return ctx.engine.planMove(input.id, input.scope);
}

async function itemsMove(ctx: CommandContext, input: ParsedInputOf<typeof ItemsMove>) {
  return ctx.engine.move(input.id, input.scope);
}

export const itemHandlers = { 'items.planMove': itemsPlanMove, 'items.move': itemsMove };
