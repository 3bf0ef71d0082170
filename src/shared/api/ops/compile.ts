/**
 * The compile pass with a chat model (docs/FACTS.md [K9]–[K11]): compiles sources into facts on
 * entity pages, each with its citation. Without ids, every source this replica compiles that is
 * not compiled yet, changed since, or failed last time; with ids, those (each must be a file or a
 * note its member authored). A person's act, from the command line or the app: agents state facts
 * with brain_fact instead (`notOn`).
 */
import { z } from 'zod';
import { defineOperation, type Surface } from '../operation.ts';

const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];

export const COMPILE_LIMITS = { ids: 200, idChars: 100 } as const;

const CompileOutcomeSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: z.enum(['file', 'note']),
  /**
   * done; skipped: the same content as its last done pass; stale: changed while compiling; busy:
   * being compiled by another process (docs/FACTS.md [K11]); failed.
   */
  state: z.enum(['done', 'skipped', 'stale', 'busy', 'failed']),
  facts: z.number(),
  added: z.number(),
  kept: z.number(),
  retired: z.number(),
  entities: z.number(),
  cards: z.number(),
  dropped: z.number(),
  truncated: z.boolean(),
  error: z.string().nullable(),
});

export const KnowledgeCompile = defineOperation({
  name: 'knowledge.compile',
  summary: 'Compile sources into facts on entity pages with a chat model',
  input: z
    .object({
      ids: z
        .array(z.string().trim().min(1).max(COMPILE_LIMITS.idChars))
        .max(COMPILE_LIMITS.ids)
        .optional()
        .describe('files or notes (default: every source waiting for a pass)'),
      force: z.boolean().optional().describe('compile even a source whose content is unchanged'),
      auto: z
        .boolean()
        .optional()
        .describe(
          "as after indexing: skip named sources this replica does not compile on its own (another member's, a repository's documents) instead of refusing",
        ),
    })
    .strict(),
  output: z.object({ model: z.string(), results: z.array(CompileOutcomeSchema) }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const COMPILE_OPERATIONS = [KnowledgeCompile] as const;
