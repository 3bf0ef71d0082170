/**
 * Moving a file (with its sections) or a note to another scope: the explicit, confirmed way to
 * change who can see it ([S24] in docs/SYNC_SPEC.md: only its author or an admin, never out of
 * the author's sight). What a move would do is asked first (items.planMove) so a surface can
 * confirm it with the person; items.move does it. Declared once (src/shared/api/operation.ts) for
 * people; an agent never changes who can see something (`notOn`).
 */
import { z } from 'zod';
import { defineOperation, type Surface } from '../operation.ts';

const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];
const input = z
  .object({
    id: z.string().min(1).max(200),
    scope: z.string().min(1, 'say which scope: org, team:<id> or user:<id>').max(80),
  })
  .strict();

const MovePlanSchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: z.enum(['file', 'note']),
  from: z.string(),
  to: z.string(),
  /** The file's live sections (they move with it, as do the retired ones). */
  sections: z.number(),
  author: z.string(),
});

export const ItemsPlanMove = defineOperation({
  name: 'items.planMove',
  summary: 'What moving a file or note to another scope would do (nothing is changed)',
  input,
  output: MovePlanSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const ItemsMove = defineOperation({
  name: 'items.move',
  summary: 'Move a file (and its sections) or a note to another scope',
  input,
  output: MovePlanSchema.extend({
    /** False when the item was already in that scope: nothing was written. */
    moved: z.boolean(),
    /** Rows whose scope changed: the item and every section of a file. */
    items: z.number(),
    /** Of them, the ones whose vector was re-filed under the new scope. */
    vectors: z.number(),
  }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/**
 * Removing a source (docs/FACTS.md [K8]): the file (with its sections) or note is retired; the facts
 * only it supported leave their pages; entities left with no current fact are named. Re-adding the
 * same file brings it back.
 */
export const ItemsRemove = defineOperation({
  name: 'items.remove',
  summary: 'Remove a file (with its sections) or a note: search no longer finds it',
  input: z.object({ id: z.string().trim().min(1).max(64) }).strict(),
  output: z.object({
    id: z.string(),
    label: z.string(),
    removed: z.boolean(),
    retiredFacts: z.number(),
    emptied: z.array(z.object({ id: z.string(), label: z.string() })),
  }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/**
 * Erasing a source (docs/FACTS.md [K14]): the file or note goes with everything derived from it,
 * its earlier versions and history included; nothing is kept. The local admin's only; connected,
 * the workspace server decides and every replica follows (docs/SYNC_SPEC.md [S35]). The answer
 * counts what went and names the entities left with no current fact.
 */
export const ItemsErase = defineOperation({
  name: 'items.erase',
  summary: 'Erase a file or note with everything derived from it, history included: nothing is kept',
  input: z.object({ id: z.string().trim().min(1).max(64) }).strict(),
  output: z.object({
    id: z.string(),
    label: z.string(),
    storageKind: z.enum(['file', 'note']),
    /** Earlier versions erased with it. */
    versions: z.number(),
    /** Sections erased: its own and its versions'. */
    sections: z.number(),
    /** Edges from or to any of these (claims, mentions, links). */
    links: z.number(),
    /** Stored files deleted (bytes no other item references). */
    blobs: z.number(),
    retiredFacts: z.number(),
    emptied: z.array(z.object({ id: z.string(), label: z.string() })),
    /** Sent to the workspace server, which erases it on every replica. */
    sent: z.boolean(),
  }),
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/**
 * The bytes a PDF passage was cut from, for the dossier's page view ([F15] in docs/FORMATS.md):
 * asked by item id (a PDF file or one of its sections), never by hash, through the same scope
 * check as reading the item's text. A section answers the bytes it was indexed from (its own blob),
 * so its page and characters still fit after the file changed. The app's alone: base64 in the JSON
 * answer, as every transport carries JSON, at most the file limit (MAX_FILE_BYTES).
 */
export const ItemsOriginal = defineOperation({
  name: 'items.original',
  summary: "The stored bytes of a PDF file or of a PDF passage's file, base64",
  input: z.object({ id: z.string().trim().min(1).max(64) }).strict(),
  output: z.object({
    /** The file the bytes belong to. */
    fileId: z.string(),
    label: z.string(),
    format: z.literal('pdf'),
    /** The content hash of the bytes. */
    blob: z.string(),
    size: z.number().int().min(0),
    base64: z.string(),
  }),
  mutates: false,
  notOn: ['agent', 'cli'],
});

export const ITEM_OPERATIONS = [ItemsPlanMove, ItemsMove, ItemsRemove, ItemsErase, ItemsOriginal] as const;
