/**
 * A source's versions (docs/FACTS.md [K16]): the same source key (a file's path, `--external-id`, a
 * note's source_key) with new content is the source's next version; the earlier ones are kept,
 * retired, each pointing at the source. The dossier and `brain versions` list them.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const SourceVersionSchema = z.object({
  id: z.string(),
  number: z.number(),
  current: z.boolean(),
  label: z.string(),
  at: z.string(),
  replacedAt: z.string().nullable(),
  size: z.number().nullable(),
  blob: z.string().nullable(),
});

export const ItemsVersions = defineOperation({
  name: 'items.versions',
  summary: "A file's or note's versions, newest first (the current one, then those it replaced)",
  input: z.object({ id: z.string().trim().min(1).max(64) }).strict(),
  output: z.object({ id: z.string(), versions: z.array(SourceVersionSchema) }),
  mutates: false,
});

export const VERSION_OPERATIONS = [ItemsVersions] as const;
