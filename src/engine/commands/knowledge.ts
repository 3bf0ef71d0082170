/**
 * Entities, dossiers, the graph view and the activity list, as every surface runs them
 * (src/shared/api/ops/knowledge.ts). Every read goes through the caller's scopes ([V1] in
 * docs/PRODUCT.md): an entity, a dossier or a graph node only when its scope is visible, an edge
 * only when both ends are; graph filters narrow what is visible and never widen it. Activity is
 * the caller's own, never another member's (src/engine/knowledge/activity.ts).
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  ActivityList,
  EntitiesDuplicates,
  EntitiesLink,
  EntitiesList,
  GraphGet,
  ItemsDossier,
} from '#shared/api/ops/knowledge.ts';
import { listActivity } from '../knowledge/activity.ts';
import { listEntities, possibleDuplicates } from '../knowledge/entities.ts';
import { linkItems } from '../knowledge/graph.ts';
import { graphView } from '../knowledge/graph-view.ts';
import { dossier } from '../read/dossier.ts';
import type { CommandContext } from './types.ts';

async function entitiesList(
  ctx: CommandContext,
  input: ParsedInputOf<typeof EntitiesList>,
): Promise<OutputOf<typeof EntitiesList>> {
  return { entities: listEntities(ctx.engine.db, ctx.engine.scopes(), input) };
}

async function entitiesDuplicates(
  ctx: CommandContext,
  input: ParsedInputOf<typeof EntitiesDuplicates>,
): Promise<OutputOf<typeof EntitiesDuplicates>> {
  return { pairs: possibleDuplicates(ctx.engine.db, ctx.engine.scopes(), input) };
}

/**
 * A person's decision, recorded as a soft edge ([A2], [E1] in docs/PRODUCT.md): both entities keep
 * their ids, names and scopes. Both ends must be visible to the caller (linkItems checks).
 */
async function entitiesLink(
  ctx: CommandContext,
  input: ParsedInputOf<typeof EntitiesLink>,
): Promise<OutputOf<typeof EntitiesLink>> {
  const { engine, origin } = ctx;
  // Edges keep an empty run for a member's own link, as the app has always written them.
  const edge = linkItems(
    engine.db,
    engine.scopes(),
    { from: input.from, to: input.to, type: 'SAME_AS', note: input.note },
    { actor: origin.actor, source: origin.source, run: origin.run ?? '' },
  );
  return { id: edge.id, type: edge.type, from: edge.from, to: edge.to };
}

async function itemsDossier(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ItemsDossier>,
): Promise<OutputOf<typeof ItemsDossier>> {
  return dossier(ctx.engine, input.id, input.at);
}

async function graphGet(
  ctx: CommandContext,
  input: ParsedInputOf<typeof GraphGet>,
): Promise<OutputOf<typeof GraphGet>> {
  return graphView(ctx.engine.db, ctx.engine.scopes(), input);
}

async function activityList(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ActivityList>,
): Promise<OutputOf<typeof ActivityList>> {
  const { engine } = ctx;
  return {
    entries: listActivity(engine.db, { user: engine.user, limit: input.limit, before: input.before }),
  };
}

export const knowledgeHandlers = {
  'entities.list': entitiesList,
  'entities.duplicates': entitiesDuplicates,
  'entities.link': entitiesLink,
  'items.dossier': itemsDossier,
  'graph.get': graphGet,
  'activity.list': activityList,
} as const;
