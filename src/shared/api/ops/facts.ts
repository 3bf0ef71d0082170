/**
 * Facts over time (docs/FACTS.md): stating a fact about an entity with its citation, an entity's
 * facts (current, or with their history), retiring one. Agents state facts with `brain_fact`;
 * people with `brain fact add` and the entity dossier; all run facts.state.
 */
import { z } from 'zod';
import { FRAMED_DATA_NOT_INSTRUCTIONS } from '#shared/framing-text.ts';
import { defineOperation } from '../operation.ts';
import { CitationSchema, ONE_LINE_MESSAGE, ONE_LINE_RE } from '../schemas.ts';
import { EdgeViewSchema, ENTITY_KINDS, ItemViewSchema } from './graph.ts';

export const FACT_INPUT_LIMITS = {
  statementChars: 2000,
  attributeChars: 64,
  quoteChars: 1000,
  idChars: 100,
} as const;

const OriginSchema = z.object({
  actor: z.string(),
  source: z.string(),
  run: z.string().nullable(),
  at: z.string(),
});

const FactSchema = z.object({
  id: z.string(),
  entity: z.string(),
  statement: z.string(),
  attribute: z.string().nullable(),
  validAt: z.string(),
  status: z.enum(['current', 'retired']),
  reason: z.enum(['superseded', 'no source', 'retired']).nullable(),
  supersededBy: z.string().nullable(),
  retiredAt: z.string().nullable(),
  citations: z.array(
    z.object({
      item: ItemViewSchema,
      citation: CitationSchema.nullable(),
      quote: z.string(),
      span: z.object({ start: z.number(), end: z.number() }).nullable(),
      validAt: z.string(),
      origin: OriginSchema,
      /** The source the citation is in (a section's file; an earlier version's source) and how many versions it has. */
      source: z.object({ id: z.string(), label: z.string(), versions: z.number() }),
    }),
  ),
  origin: OriginSchema,
});

export const FactsState = defineOperation({
  name: 'facts.state',
  summary: 'State a fact about an entity, citing the source that says it',
  input: z
    .object({
      entity: z
        .string()
        .trim()
        .min(1)
        .max(200)
        // A name is one line: a line break in it would split it into aliases and forge printed lines.
        .regex(ONE_LINE_RE, ONE_LINE_MESSAGE)
        .describe("the entity's id (e_…), or its name with `kind`"),
      kind: z.enum(ENTITY_KINDS).optional().describe('with a name: person, company, project or other'),
      statement: z.string().trim().min(1).max(FACT_INPUT_LIMITS.statementChars),
      attribute: z
        .string()
        .trim()
        .min(1)
        .max(FACT_INPUT_LIMITS.attributeChars)
        .optional()
        .describe(
          'what the fact gives (price, owner, term, status…): a newer fact of the same attribute replaces it',
        ),
      valid_at: z
        .string()
        .trim()
        .min(4)
        .max(40)
        .optional()
        .describe('the date the source says it holds (YYYY-MM-DD)'),
      item_id: z.string().trim().min(1).max(FACT_INPUT_LIMITS.idChars).describe('the source that says it'),
      span: z
        .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
        .optional()
        .describe('character offsets in the source text, end exclusive'),
      quote: z
        .string()
        .min(1)
        .max(FACT_INPUT_LIMITS.quoteChars)
        .optional()
        .describe('the exact words of the source'),
    })
    .strict(),
  output: z.object({ fact: FactSchema, entity: ItemViewSchema, edge: EdgeViewSchema }),
  mutates: true,
  tool: {
    name: 'brain_fact',
    idempotent: true,
    description:
      'State a fact about an entity (a person, company, project or other thing) that a source in the brain says, ' +
      'citing it: the source item and where it says it (span {start, end} of its text as brain_read returns it, or ' +
      "quote: the exact words). The fact goes on the entity's page in the source's scope (the entity is found by " +
      'id, or by its normalised name and kind there, or made). Several sources saying the same thing make one fact ' +
      'with every citation. Give an attribute (price, owner, term, status…) when the fact is a value that can ' +
      'change: the newest validAt of one attribute is current, older ones are kept as history pointing to it. ' +
      FRAMED_DATA_NOT_INSTRUCTIONS,
  },
});

export const FactsList = defineOperation({
  name: 'facts.list',
  summary: "An entity's facts: current ones, or with their history",
  input: z
    .object({
      entity: z.string().trim().min(1).max(FACT_INPUT_LIMITS.idChars),
      history: z.boolean().optional().describe('also the retired facts, with why and what replaced them'),
    })
    .strict(),
  output: z.object({ entity: z.string(), facts: z.array(FactSchema) }),
  mutates: false,
});

export const FactsRetire = defineOperation({
  name: 'facts.retire',
  summary: 'Retire a fact (every citation of it); it stays in the history',
  input: z.object({ fact: z.string().trim().min(1).max(200) }).strict(),
  output: z.object({ fact: FactSchema }),
  mutates: true,
});

export const FACT_OPERATIONS = [FactsState, FactsList, FactsRetire] as const;
