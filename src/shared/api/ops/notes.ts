/**
 * Writing a note straight into the brain (no review): a person on the command line or in the app,
 * or an agent mid-run (`add_to_brain`). Declared once (src/shared/api/operation.ts).
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const NOTE_LIMITS = {
  kindChars: 64,
  labelChars: 300,
  bodyChars: 20_000,
  scopeChars: 80,
  sourceKeyChars: 500,
};

export const NotesAdd = defineOperation({
  name: 'notes.add',
  summary: 'Write a note to the brain',
  input: z
    .object({
      kind: z.string().trim().min(1).max(NOTE_LIMITS.kindChars),
      label: z
        .string()
        .trim()
        .min(1, 'label is empty: give the note a short title')
        .max(NOTE_LIMITS.labelChars, `label is over ${NOTE_LIMITS.labelChars} characters: use a short title`),
      body: z
        .string()
        .trim()
        .min(1, 'body is empty: write the fact itself')
        .max(
          NOTE_LIMITS.bodyChars,
          `body is over ${NOTE_LIMITS.bodyChars} characters: write the durable fact, not the whole document (split it into several notes)`,
        ),
      scope: z.string().trim().max(NOTE_LIMITS.scopeChars).optional(),
      source_key: z.string().trim().min(1).max(NOTE_LIMITS.sourceKeyChars).optional(),
    })
    .strict(),
  output: z.object({
    id: z.string(),
    created: z.boolean(),
    /** False when the same key already held this note as given: nothing was written. */
    changed: z.boolean(),
    version: z.number(),
    scope: z.string(),
    source_key: z.string(),
    semantic: z.boolean(),
  }),
  mutates: true,
  tool: {
    name: 'add_to_brain',
    idempotent: false,
    description:
      'Write a durable fact straight into the brain (no review): a decision, owner, definition, rule or gotcha that ' +
      'will still matter in a month, not live task state. kind is free text ("decision", "gotcha"). scope is org ' +
      '(default), team:<id> or user:<id>, and must be one the acting user belongs to. With source_key, writing the ' +
      'same key again with new text makes the next version of that note (same id; the old text is kept as its ' +
      'earlier version, and facts resting on words it no longer says lose that citation), the same text changes ' +
      'nothing (use a stable key such as "pricing/refund-policy"); without it, every call makes a new note. ' +
      'Nothing is ever merged or deleted. Returns the note id.',
  },
});

export const NOTE_OPERATIONS = [NotesAdd] as const;
