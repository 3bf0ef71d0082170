/**
 * The reads agents and people make mid-task: search, read a cited range, the read injection for a
 * turn. Declared once (src/shared/api/operation.ts) with their limits per surface: agents get at
 * most SEARCH_K_MAX_AGENT hits ([Q1] in docs/PRODUCT.md), the CLI up to
 * SEARCH_K_MAX_CLI for evaluations, the app's screens 50.
 */
import { z } from 'zod';
import { SEARCH_K_MAX_AGENT, SEARCH_K_MAX_CLI } from '#shared/constants.ts';
import { FRAMED_DATA_NOT_INSTRUCTIONS } from '#shared/framing-text.ts';
import { defineOperation } from '../operation.ts';
import { ContextResultSchema, ReadResultSchema, SearchResultSchema } from '../schemas.ts';

const LIMITS = {
  queryChars: 2000,
  messageChars: 8000,
  anchorsMax: 4,
  idChars: 200,
  kAppMax: 50,
} as const;

const DATA = FRAMED_DATA_NOT_INSTRUCTIONS;

const itemId = z.string().trim().min(1).max(LIMITS.idChars);

function searchInput(kMax: number) {
  return z
    .object({
      query: z.string().trim().min(1, 'query is empty: say what to look for').max(LIMITS.queryChars),
      k: z
        .number()
        .int()
        .min(1)
        .max(kMax, `k is at most ${kMax}; ask for ${kMax} or fewer and refine the query`)
        .optional(),
    })
    .strict();
}

export const SearchQuery = defineOperation({
  name: 'search.query',
  summary: 'Search the brain',
  input: searchInput(LIMITS.kAppMax),
  inputFor: { agent: searchInput(SEARCH_K_MAX_AGENT), cli: searchInput(SEARCH_K_MAX_CLI) },
  output: SearchResultSchema,
  mutates: false,
  tool: {
    name: 'brain_search',
    description:
      'Hybrid search (keyword + semantic, rank fusion) over what the acting user may see: files, sections, notes, ' +
      `entities. Returns up to k hits (default 5, at most ${SEARCH_K_MAX_AGENT}), each with id, label, kind, scope, ` +
      'score, body (cut at 4000 characters) and a citation (file, line or page range) to pass to brain_read. ' +
      DATA,
  },
});

export const ItemsRead = defineOperation({
  name: 'items.read',
  summary: 'Read an item or a cited range',
  input: z
    .object({
      id: itemId,
      from_line: z.number().int().min(1).optional(),
      to_line: z.number().int().min(1).optional(),
    })
    .strict()
    .refine((r) => r.to_line === undefined || r.from_line !== undefined, 'to_line needs from_line too')
    .refine(
      (r) => r.to_line === undefined || r.from_line === undefined || r.to_line >= r.from_line,
      'to_line must not be before from_line',
    ),
  output: ReadResultSchema,
  mutates: false,
  tool: {
    name: 'brain_read',
    description:
      'Read a whole item (file, section, note, entity) or just a line range of it, such as the lineStart-lineEnd of ' +
      'a search citation, so you never load a whole document to check one passage. Lines are numbered as in the ' +
      'file. Long answers are cut at 50000 characters with the range to read next. ' +
      DATA,
  },
});

export const ContextGet = defineOperation({
  name: 'context.get',
  summary: 'What the brain knows that matters for this turn',
  input: z
    .object({
      message: z
        .string()
        .max(
          LIMITS.messageChars,
          `message is over ${LIMITS.messageChars} characters: send the latest message only`,
        ),
      anchors: z
        .array(itemId)
        .max(LIMITS.anchorsMax, `at most ${LIMITS.anchorsMax} anchors: keep the items that matter most`)
        .optional(),
    })
    .strict(),
  output: ContextResultSchema,
  mutates: false,
  tool: {
    name: 'brain_context',
    description:
      'The read injection for an agent turn: give the latest message (and up to 4 anchor item ids: the item being ' +
      'worked on, pinned items). Answers with at most 8 cited items in about 1200-1500 tokens, or nothing when ' +
      'nothing is relevant enough (small talk injects nothing); `reason` says why either way. ' +
      DATA,
  },
});

export const RETRIEVAL_OPERATIONS = [SearchQuery, ItemsRead, ContextGet] as const;
