/**
 * What the brain knows, as people browse it: entities and their possible duplicates, the SAME_AS
 * link a person confirms, an item's or an entity's dossier, the graph view and the activity list.
 * Declared once (src/shared/api/operation.ts). The CLI keeps the larger caps it had for scripts
 * (entities and graph nodes up to KNOWLEDGE_LIMITS.cliMax) and its own activity page size; none
 * is an MCP tool (agents have brain_neighborhood and brain_link, src/hosts/mcp/tools).
 */
import { z } from 'zod';
import {
  ActivityListSchema,
  DossierSchema,
  DuplicateListSchema,
  EntityListSchema,
  GraphViewSchema,
  LinkResultSchema,
} from '../knowledge-schemas.ts';
import { defineOperation } from '../operation.ts';
import { StorageKindSchema } from '../schemas.ts';

export const KNOWLEDGE_LIMITS = {
  idChars: 200,
  qChars: 200,
  entitiesApp: 5000,
  entitiesDefault: 500,
  duplicatesMax: 500,
  duplicatesDefault: 100,
  linkNoteChars: 500,
  hopsMax: 3,
  graphNodesApp: 20_000,
  graphNodesDefault: 5000,
  filterValues: 100,
  filterChars: 80,
  /** The CLI's cap on entities and graph nodes: scripts may ask for more than a screen shows. */
  cliMax: 100_000,
  activityMax: 500,
  /** The app's Activity screen pages by 100; `brain activity` prints 50 by default. */
  activityDefaultApp: 100,
  activityDefaultCli: 50,
} as const;

const L = KNOWLEDGE_LIMITS;
const id = z.string().min(1).max(L.idChars);
const filterList = z.array(z.string().max(L.filterChars)).max(L.filterValues).optional();

/** A whole number from 1 to max, with a default; the message says the range, as the CLI's did. */
function count(name: string, max: number, fallback: number) {
  return z
    .number()
    .int(`${name} takes a whole number from 1 to ${max}`)
    .min(1, `${name} takes a whole number from 1 to ${max}`)
    .max(max, `${name} takes a whole number from 1 to ${max}`)
    .default(fallback);
}

function entitiesInput(max: number) {
  return z
    .object({ q: z.string().max(L.qChars).optional(), limit: count('limit', max, L.entitiesDefault) })
    .strict();
}

export const EntitiesList = defineOperation({
  name: 'entities.list',
  summary: 'Entities you can see, with every alias and their counts',
  input: entitiesInput(L.entitiesApp),
  inputFor: { cli: entitiesInput(L.cliMax) },
  output: EntityListSchema,
  mutates: false,
});

/** Entities whose names are very close: offered for a person to join with SAME_AS, never merged. */
export const EntitiesDuplicates = defineOperation({
  name: 'entities.duplicates',
  summary: 'Entities whose names are very close',
  input: z
    .object({ id: id.optional(), limit: count('limit', L.duplicatesMax, L.duplicatesDefault) })
    .strict(),
  output: DuplicateListSchema,
  mutates: false,
  notOn: ['cli'],
});

/** A person confirms two entities are the same: a soft SAME_AS edge; both stay as they are. */
export const EntitiesLink = defineOperation({
  name: 'entities.link',
  summary: 'Confirm two entities are the same (a soft SAME_AS edge)',
  input: z.object({ from: id, to: id, note: z.string().max(L.linkNoteChars).optional() }).strict(),
  output: LinkResultSchema,
  mutates: true,
  notOn: ['cli'],
});

/** A character range in an item's text (a mention): the dossier highlights it. */
const span = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
  .strict()
  .refine((r) => r.end > r.start, 'end must be after start');

export const ItemsDossier = defineOperation({
  name: 'items.dossier',
  summary: "An item's or an entity's dossier",
  input: z.object({ id, at: span.optional() }).strict(),
  output: DossierSchema,
  mutates: false,
});

function graphInput(maxNodes: number) {
  return z
    .object({
      around: id.optional(),
      hops: count('hops', L.hopsMax, 1),
      limit: count('limit', maxNodes, L.graphNodesDefault),
      storageKinds: z.array(StorageKindSchema).max(4).optional(),
      kinds: filterList,
      edgeTypes: filterList,
      scopes: filterList,
    })
    .strict();
}

/**
 * The graph view: visible nodes and edges only (an edge when both ends are visible). Without
 * `around`, the best-connected `limit` nodes; with it, the neighborhood `hops` out. Sections are
 * folded into their files unless `storageKinds` asks for them.
 */
export const GraphGet = defineOperation({
  name: 'graph.get',
  summary: 'The nodes and edges you can see',
  input: graphInput(L.graphNodesApp),
  inputFor: { cli: graphInput(L.cliMax) },
  output: GraphViewSchema,
  mutates: false,
});

function activityInput(fallback: number, before: z.ZodNumber) {
  return z.object({ limit: count('limit', L.activityMax, fallback), before: before.optional() }).strict();
}

/** Your own telemetry, newest first: `before` is the id of the last entry of the previous page. */
export const ActivityList = defineOperation({
  name: 'activity.list',
  summary: 'Your recent searches, injections and tool calls',
  input: activityInput(L.activityDefaultApp, z.number().int()),
  // The command line took only a positive entry id after --before.
  inputFor: { cli: activityInput(L.activityDefaultCli, z.number().int().min(1, 'before takes an entry id')) },
  output: ActivityListSchema,
  mutates: false,
});

export const KNOWLEDGE_OPERATIONS = [
  EntitiesList,
  EntitiesDuplicates,
  EntitiesLink,
  ItemsDossier,
  GraphGet,
  ActivityList,
] as const;
