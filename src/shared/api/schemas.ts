/**
 * Zod schemas of what operations answer (src/shared/api/operation.ts): every surface's output is
 * checked against them, the MCP tools publish them as `outputSchema`, and the types in
 * src/shared/types.ts must stay assignable to them (the `satisfies` checks below).
 */
import { z } from 'zod';
import type { Citation, Locator, SearchHit, SearchResult } from '../types.ts';

/**
 * A name or id printed as one line (`brain runs`, alias lists): no line break or other control
 * character, which would split it or forge the next line, nor the Unicode line and paragraph
 * separators (U+2028, U+2029). Checked by the contract, the engine and the server ([S38] in
 * docs/SYNC_SPEC.md).
 */
export const ONE_LINE_RE = /^[^\p{Cc}\u2028\u2029]*$/u;
export const ONE_LINE_MESSAGE = 'one line of text, without control characters';

export const StorageKindSchema = z.enum(['file', 'section', 'note', 'entity']);

const BboxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const TurnSchema = z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]);

export const LocatorSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    byteStart: z.number(),
    byteEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
  }),
  z.object({
    type: z.literal('pdf'),
    page: z.number(),
    charStart: z.number(),
    charEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
    bbox: BboxSchema.optional(),
    ocr: z.string().optional(),
    turn: TurnSchema.optional(),
    /** docs/OCR.md [O9]: the page was read by OCR because its file is, its text layer ignored. */
    forced: z.literal(true).optional(),
  }),
  z.object({ type: z.literal('xlsx'), sheet: z.string(), rowStart: z.number(), rowEnd: z.number() }),
  z.object({
    type: z.literal('docx'),
    charStart: z.number(),
    charEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
  }),
  z.object({
    type: z.literal('csv'),
    rowStart: z.number(),
    rowEnd: z.number(),
    byteStart: z.number(),
    byteEnd: z.number(),
  }),
  z.object({
    type: z.literal('html'),
    charStart: z.number(),
    charEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
  }),
  z.object({
    type: z.literal('pptx'),
    slide: z.number(),
    charStart: z.number(),
    charEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
  }),
  z.object({
    type: z.literal('image'),
    charStart: z.number(),
    charEnd: z.number(),
    lineStart: z.number(),
    lineEnd: z.number(),
    bbox: BboxSchema.optional(),
    ocr: z.string(),
    turn: TurnSchema.optional(),
  }),
]);

export const CitationSchema = z.object({
  itemId: z.string(),
  fileId: z.string(),
  fileLabel: z.string(),
  blob: z.string(),
  locator: LocatorSchema.nullable(),
  lineStart: z.number().optional(),
  lineEnd: z.number().optional(),
  page: z.number().optional(),
  repo: z.object({ path: z.string(), commit: z.string().nullable() }).optional(),
});

const PassageSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: StorageKindSchema,
  kind: z.string(),
  score: z.number(),
  body: z.string(),
  scope: z.string(),
  citation: CitationSchema.nullable(),
});

export const AlsoPassageSchema = z.object({
  id: z.string(),
  label: z.string(),
  citation: CitationSchema.nullable(),
});

const SearchHitSchema = PassageSchema.extend({
  more: z.number().optional(),
  also: z.array(AlsoPassageSchema).optional(),
});

export const SearchResultSchema = z.object({ semantic: z.boolean(), hits: z.array(SearchHitSchema) });

/** What a read returns: exactly the cited range (or the whole item), with its line numbers. */
export const ReadResultSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: StorageKindSchema,
  kind: z.string(),
  scope: z.string(),
  text: z.string(),
  /** 1-based line of the first line of `text` in the whole document. */
  firstLine: z.number(),
  lineStart: z.number(),
  lineEnd: z.number(),
  citation: CitationSchema.nullable(),
});

/** The read injection for a turn: at most 8 cited items in about 1200–1500 tokens, or nothing, and why. */
export const ContextResultSchema = z.object({
  reason: z.string(),
  semantic: z.boolean(),
  floor: z.number(),
  tokens: z.number(),
  /** The boundary fencing each memory in `context` (docs/SECURITY.md [F1]). */
  boundary: z.string(),
  anchors: z.array(
    z.object({ id: z.string(), status: z.enum(['included', 'not-found', 'over-limit', 'duplicate']) }),
  ),
  items: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      kind: z.string(),
      storageKind: StorageKindSchema,
      scope: z.string(),
      score: z.number().nullable(),
      isAnchor: z.boolean(),
      citation: CitationSchema.nullable(),
    }),
  ),
  context: z.string(),
  /** On an agent run's first answer: its brain, first in `context` (docs/AGENTS.md [G7]). */
  agentBrain: z
    .object({ agent: z.string(), version: z.number(), shown: z.number(), total: z.number() })
    .optional(),
});

/** The hand-written types the rest of the code uses stay exactly what the schemas check. */
type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type SchemaChecks = [
  Assignable<Locator, z.infer<typeof LocatorSchema>>,
  Assignable<Citation, z.infer<typeof CitationSchema>>,
  Assignable<SearchHit, z.infer<typeof SearchHitSchema>>,
  Assignable<SearchResult, z.infer<typeof SearchResultSchema>>,
];
