/**
 * The fact operations (src/shared/api/ops/facts.ts), as every surface runs them; the rules live in
 * src/engine/knowledge/facts.ts (docs/FACTS.md). Retiring a fact is recorded in Activity.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { FactsList, FactsRetire, FactsState } from '#shared/api/ops/facts.ts';
import { entityFacts, retireFact, stateFact } from '../knowledge/facts.ts';
import { spanText } from '../knowledge/graph.ts';
import { logEvent } from '../telemetry.ts';
import type { CommandContext } from './types.ts';

async function factsState(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FactsState>,
): Promise<OutputOf<typeof FactsState>> {
  const { engine } = ctx;
  const text = await spanText(engine.db, engine.blobs, input.item_id, engine.scopes());
  return stateFact(
    engine.db,
    engine.workspaceId,
    engine.scopes(),
    {
      entity: input.entity,
      kind: input.kind,
      statement: input.statement,
      attribute: input.attribute ?? null,
      validAt: input.valid_at ?? null,
      validAtField: ctx.surface === 'cli' ? '--valid-at' : 'valid_at',
      citation: { item: input.item_id, span: input.span, quote: input.quote },
    },
    ctx.origin,
    text,
  );
}

async function factsList(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FactsList>,
): Promise<OutputOf<typeof FactsList>> {
  const { engine } = ctx;
  return { entity: input.entity, facts: entityFacts(engine.db, engine.scopes(), input.entity, input) };
}

async function factsRetire(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FactsRetire>,
): Promise<OutputOf<typeof FactsRetire>> {
  const { engine } = ctx;
  const fact = retireFact(engine.db, engine.scopes(), input.fact);
  logEvent(engine.db, ctx.surface, engine.user, 'fact.retire', { fact: fact.id, entity: fact.entity });
  return { fact };
}

export const factHandlers = {
  'facts.state': factsState,
  'facts.list': factsList,
  'facts.retire': factsRetire,
};
