/**
 * The graph writes and reads agents (and people) make mid-task, and the end of a run: a mention of
 * a named thing in an item, a custom link between two items, the neighborhood of an item, a run
 * handed in for write-back. Declared once (src/shared/api/operation.ts) with the limits the MCP
 * tools enforced, now the same on every surface.
 */
import { z } from 'zod';
import { NEIGHBORHOOD_EDGES_PER_HOP, NEIGHBORHOOD_ITEMS_PER_HOP } from '#shared/constants.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS } from '#shared/framing-text.ts';
import { defineOperation } from '../operation.ts';
import { ONE_LINE_MESSAGE, ONE_LINE_RE, StorageKindSchema } from '../schemas.ts';

export const GRAPH_LIMITS = {
  idChars: 64,
  nameChars: 200,
  quoteChars: 1000,
  linkTypeChars: 64,
  linkNoteChars: 1000,
  hopsMax: 2,
  itemsPerHop: NEIGHBORHOOD_ITEMS_PER_HOP,
  edgesPerHop: NEIGHBORHOOD_EDGES_PER_HOP,
  runIdChars: 100,
  /** What one write-back pass reads of a run ([W1] in docs/PRODUCT.md). */
  workProductsChars: 8000,
} as const;

export const ENTITY_KINDS = ['person', 'company', 'project', 'other'] as const;
export const RUN_STATUSES = ['succeeded', 'blocked', 'failed', 'cancelled'] as const;
/** Who runs the pass of a pending run (src/engine/writeback/run-end.ts). */
const WRITEBACK_HANDOFFS = ['owner', 'this-process', 'host', 'later'] as const;

const itemId = z.string().trim().min(1).max(GRAPH_LIMITS.idChars);

export const ItemViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: StorageKindSchema,
  kind: z.string(),
  scope: z.string(),
});

export const EdgeViewSchema = z.object({
  id: z.string(),
  type: z.string(),
  from: z.string(),
  to: z.string(),
  props: z.record(z.string(), z.unknown()),
});

export const MentionsObserve = defineOperation({
  name: 'mentions.observe',
  summary: 'Record a mention of a person, company, project or other thing',
  input: z
    .object({
      item_id: itemId,
      name: z.string().trim().min(1).max(GRAPH_LIMITS.nameChars).regex(ONE_LINE_RE, ONE_LINE_MESSAGE),
      kind: z.enum(ENTITY_KINDS),
      span: z
        .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
        .optional()
        .describe('character offsets, end exclusive'),
      quote: z
        .string()
        .min(1)
        .max(GRAPH_LIMITS.quoteChars, `quote is over ${GRAPH_LIMITS.quoteChars} characters: quote the name`)
        .optional(),
    })
    .strict(),
  output: z.object({ entity: ItemViewSchema.extend({ created: z.boolean() }), edge: EdgeViewSchema }),
  mutates: true,
  tool: {
    name: 'brain_observe_mention',
    idempotent: true,
    description:
      'Attach a name that occurs in an item (a person, company, project or other thing) to that item. Say where: ' +
      "span {start, end} (character offsets in the item's text as brain_read returns it for the whole item) or " +
      'quote (the exact words). The entity is found by its normalised name (case, accents, punctuation and legal ' +
      'suffixes such as Inc, Ltd, GmbH, S.r.l. ignored) in the scope of the item, or created there; a MENTIONS edge ' +
      'records the mention. Nothing is merged: the same name in another scope is another entity.',
  },
});

export const LinksAdd = defineOperation({
  name: 'links.add',
  summary: 'Link two items',
  input: z
    .object({
      from_id: itemId,
      to_id: itemId,
      type: z.string().trim().min(1).max(GRAPH_LIMITS.linkTypeChars),
      note: z
        .string()
        .max(
          GRAPH_LIMITS.linkNoteChars,
          `note is over ${GRAPH_LIMITS.linkNoteChars} characters: keep it short`,
        )
        .optional(),
    })
    .strict(),
  output: EdgeViewSchema,
  mutates: true,
  tool: {
    name: 'brain_link',
    idempotent: true,
    description:
      'Make a custom edge between two items the acting user can see, with a free-text type ("depends on", ' +
      '"owned by", "SAME_AS"), stored as UPPER_SNAKE_CASE. SAME_AS is soft: it records that two items look like ' +
      'the same thing and never merges them; both keep their ids, text and scopes. Linking the same pair with the ' +
      'same type again updates the note on that edge.',
  },
});

export const GraphNeighborhood = defineOperation({
  name: 'graph.neighborhood',
  summary: 'Items linked to an item',
  input: z
    .object({
      id: itemId,
      hops: z
        .number()
        .int()
        .min(1)
        .max(
          GRAPH_LIMITS.hopsMax,
          `hops is at most ${GRAPH_LIMITS.hopsMax}; call again from an item of the last hop to go further`,
        )
        .optional(),
    })
    .strict(),
  output: z.object({
    center: ItemViewSchema,
    hops: z.array(
      z.object({
        hop: z.number(),
        items: z.array(ItemViewSchema),
        edges: z.array(EdgeViewSchema),
        truncated: z.boolean(),
      }),
    ),
  }),
  mutates: false,
  tool: {
    name: 'brain_neighborhood',
    description:
      `The items linked to an item, 1 or ${GRAPH_LIMITS.hopsMax} hops out (default 1), with the edges between them ` +
      `(HAS_SECTION, MENTIONS, SAME_AS, custom links). At most ${GRAPH_LIMITS.itemsPerHop} new items and ` +
      `${GRAPH_LIMITS.edgesPerHop} edges per hop (truncated: true says more exist); an edge is shown only when the ` +
      `acting user can see both ends. Labels only: read an item with brain_read. ${FRAMED_DATA_NOT_INSTRUCTIONS}`,
  },
});

export const RunsEnd = defineOperation({
  name: 'runs.end',
  summary: 'Hand in the end of a run',
  input: z
    .object({
      status: z.enum(RUN_STATUSES),
      work_products: z
        .string()
        .trim()
        .max(
          GRAPH_LIMITS.workProductsChars,
          `work_products is over ${GRAPH_LIMITS.workProductsChars} characters: summarise what was done and learned`,
        ),
      /** Required, except for an agent ending its own run (src/engine/commands/graph.ts). */
      run_id: z
        .string()
        .trim()
        .min(1)
        .max(GRAPH_LIMITS.runIdChars)
        // Printed a run a line (`brain runs`): a line break would forge the next one.
        .regex(ONE_LINE_RE, ONE_LINE_MESSAGE)
        .optional(),
    })
    .strict(),
  output: z.object({
    run: z.string(),
    status: z.enum(RUN_STATUSES),
    writeback: z.enum(['pending', 'skipped']),
    replaced: z.boolean(),
    /** The length of the work products as stored. */
    chars: z.number(),
    /** Where the pass of a pending run runs; null for a skipped one. */
    writebackBy: z.enum(WRITEBACK_HANDOFFS).nullable(),
  }),
  mutates: true,
  tool: {
    name: 'brain_run_end',
    idempotent: true,
    description:
      'Record that this run ended, with its status and its work products (what was done, decided, learned: at most ' +
      `${GRAPH_LIMITS.workProductsChars} characters). Succeeded and blocked runs go to a later write-back pass that ` +
      'may propose durable knowledge from them; failed and cancelled runs are kept but skipped. run_id defaults to ' +
      "this server's run. Ending the same run again replaces what it handed in until write-back has started.",
  },
});

export const GRAPH_OPERATIONS = [MentionsObserve, LinksAdd, GraphNeighborhood, RunsEnd] as const;
