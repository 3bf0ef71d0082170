/**
 * Zod schemas of what the knowledge operations answer (src/shared/api/ops/knowledge.ts): entities,
 * dossiers, the graph view and the activity list. The output of an operation is an object (an MCP
 * tool's `structuredContent` must be one), so lists come wrapped: `{ entities }`, `{ pairs }`,
 * `{ entries }`, the shapes `brain entities --json` and `brain activity --json` already printed.
 * The hand-written types in ./types.ts must stay assignable to them (the checks at the end).
 */
import { z } from 'zod';
import { CitationSchema, LocatorSchema, StorageKindSchema } from './schemas.ts';
import type {
  ActivityEntry,
  Dossier,
  DuplicatePair,
  EntityDossier,
  EntitySummary,
  GraphView,
  ItemRef,
  ItemView,
} from './types.ts';

const ItemRefSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: StorageKindSchema,
  kind: z.string(),
  scope: z.string(),
});

const EntitySummarySchema = ItemRefSchema.extend({
  aliases: z.array(z.string()),
  mentions: z.number(),
  sources: z.number(),
  sameAs: z.number(),
  updatedAt: z.string(),
});

const AliasedRefSchema = ItemRefSchema.extend({ aliases: z.array(z.string()) });

const DuplicatePairSchema = z.object({
  a: AliasedRefSchema,
  b: AliasedRefSchema,
  similarity: z.number(),
  reason: z.string(),
});

export const EntityListSchema = z.object({ entities: z.array(EntitySummarySchema) });
export const DuplicateListSchema = z.object({ pairs: z.array(DuplicatePairSchema) });
export const LinkResultSchema = z.object({
  id: z.string(),
  type: z.string(),
  from: z.string(),
  to: z.string(),
});

const OriginSchema = z.object({
  actor: z.string(),
  source: z.string(),
  run: z.string().nullable(),
  at: z.string(),
});
const SpanSchema = z.object({ start: z.number(), end: z.number() });

const ItemViewSchema = ItemRefSchema.extend({
  origin: OriginSchema,
  occurredAt: z.string().nullable(),
  dated: z.object({ at: z.string(), from: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number(),
  retiredAt: z.string().nullable(),
  indexed: z.boolean(),
  size: z.number().nullable(),
  format: z.string().nullable(),
  path: z.string().nullable(),
  health: z.array(z.string()),
  reason: z.string().nullable(),
  locator: LocatorSchema.nullable(),
  readByOcr: z.literal(true).optional(),
});

const EntityDossierSchema = z.object({
  aliases: z.array(z.object({ name: z.string(), normalised: z.string() })),
  facts: z.array(
    z.object({
      item: ItemRefSchema,
      text: z.string(),
      via: z.string(),
      citation: CitationSchema.nullable(),
      origin: OriginSchema,
      occurredAt: z.string().nullable(),
    }),
  ),
  mentions: z.array(
    z.object({
      edgeId: z.string(),
      name: z.string(),
      item: ItemRefSchema,
      file: ItemRefSchema.nullable(),
      snippet: z.object({ before: z.string(), match: z.string(), after: z.string() }),
      span: SpanSchema.nullable(),
      citation: CitationSchema.nullable(),
      origin: OriginSchema,
    }),
  ),
  related: z.array(
    z.object({ entity: ItemRefSchema, via: z.string(), count: z.number(), soft: z.boolean() }),
  ),
  retired: z.array(
    z.object({
      item: ItemRefSchema,
      what: z.enum(['mention', 'fact', 'link']),
      retiredAt: z.string().nullable(),
      replacement: ItemRefSchema.nullable(),
      origin: OriginSchema,
    }),
  ),
  duplicates: z.array(DuplicatePairSchema),
  totals: z.object({ mentions: z.number(), facts: z.number() }),
});

/** An item's page: its text with the cited range highlighted, or an entity's names, facts and mentions. */
export const DossierSchema = z.object({
  item: ItemViewSchema,
  file: ItemViewSchema.nullable(),
  outline: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      ordinal: z.number(),
      lineStart: z.number().nullable(),
      page: z.number().nullable(),
    }),
  ),
  text: z.string().nullable(),
  textNote: z.string().nullable(),
  highlight: SpanSchema.nullable(),
  citation: CitationSchema.nullable(),
  entity: EntityDossierSchema.nullable().optional(),
});

export const GraphViewSchema = z.object({
  nodes: z.array(ItemRefSchema.extend({ degree: z.number() })),
  edges: z.array(
    z.object({ id: z.string(), type: z.string(), from: z.string(), to: z.string(), count: z.number() }),
  ),
  truncated: z.boolean(),
  facets: z.object({
    storageKinds: z.array(StorageKindSchema),
    kinds: z.array(z.string()),
    edgeTypes: z.array(z.string()),
    scopes: z.array(z.string()),
  }),
});

const ActivityEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  surface: z.string(),
  user: z.string(),
  event: z.string(),
  summary: z.string(),
  spoke: z.boolean().optional(),
  reason: z.string().optional(),
  query: z.string().optional(),
  items: z
    .array(
      z.object({
        id: z.string(),
        label: z.string().nullable(),
        score: z.number().nullable(),
        isAnchor: z.boolean().optional(),
      }),
    )
    .optional(),
  tool: z.string().optional(),
  ok: z.boolean().optional(),
  ms: z.number().optional(),
  data: z.record(z.string(), z.unknown()),
});

export const ActivityListSchema = z.object({ entries: z.array(ActivityEntrySchema) });

/**
 * The hand-written types the rest of the code uses stay exactly what the schemas check, both ways:
 * a field the schema left out would be stripped from every answer without a word.
 */
type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type KnowledgeSchemaChecks = [
  Assignable<ItemRef, z.infer<typeof ItemRefSchema>>,
  Assignable<z.infer<typeof ItemRefSchema>, ItemRef>,
  Assignable<EntitySummary, z.infer<typeof EntitySummarySchema>>,
  Assignable<z.infer<typeof EntitySummarySchema>, EntitySummary>,
  Assignable<DuplicatePair, z.infer<typeof DuplicatePairSchema>>,
  Assignable<z.infer<typeof DuplicatePairSchema>, DuplicatePair>,
  Assignable<ItemView, z.infer<typeof ItemViewSchema>>,
  Assignable<z.infer<typeof ItemViewSchema>, ItemView>,
  Assignable<EntityDossier, z.infer<typeof EntityDossierSchema>>,
  Assignable<z.infer<typeof EntityDossierSchema>, EntityDossier>,
  Assignable<Dossier, z.infer<typeof DossierSchema>>,
  Assignable<z.infer<typeof DossierSchema>, Dossier>,
  Assignable<GraphView, z.infer<typeof GraphViewSchema>>,
  Assignable<z.infer<typeof GraphViewSchema>, GraphView>,
  Assignable<ActivityEntry, z.infer<typeof ActivityEntrySchema>>,
  Assignable<z.infer<typeof ActivityEntrySchema>, ActivityEntry>,
];
