/**
 * The brain's JSON contract (docs/AGENTS.md [G3]), published as docs/agent-brain.schema.json; a
 * contract test keeps the two alike. A brain is a summary and sections (conventions, gotchas,
 * decisions, open questions, and any other snake_case name), each an array of entries that cite
 * the observation ids they rest on (at least one).
 */
import { z } from 'zod';

export const BRAIN_LIMITS = {
  summaryChars: 2000,
  entryChars: 1000,
  entriesPerSection: 100,
  sections: 20,
  citesPerEntry: 50,
} as const;

/** The sections every brain may have; the prompt names them, a model may add others. */
export const KNOWN_SECTIONS = ['conventions', 'gotchas', 'decisions', 'open_questions'] as const;

export const SECTION_NAME = /^[a-z][a-z0-9_]{0,39}$/;

const L = BRAIN_LIMITS;

export const BrainEntrySchema = z
  .object({
    text: z.string().trim().min(1).max(L.entryChars),
    observation_ids: z.array(z.string().min(1).max(64)).min(1).max(L.citesPerEntry),
  })
  .strict();

const Section = z.array(BrainEntrySchema).max(L.entriesPerSection);

export const BrainSchema = z
  .object({
    version: z.number().int().min(1).optional(),
    summary: z.string().trim().max(L.summaryChars).optional(),
    sections: z
      .object(
        Object.fromEntries(KNOWN_SECTIONS.map((s) => [s, Section.optional()])) as Record<
          (typeof KNOWN_SECTIONS)[number],
          z.ZodOptional<typeof Section>
        >,
      )
      .catchall(Section)
      .refine((s) => Object.keys(s).every((k) => SECTION_NAME.test(k)), {
        message: 'section names are snake_case (a-z, 0-9, _), at most 40 characters',
      })
      .refine((s) => Object.keys(s).length <= L.sections, { message: `at most ${L.sections} sections` }),
  })
  .strict();

export type BrainEntry = z.output<typeof BrainEntrySchema>;
export type Brain = z.output<typeof BrainSchema>;

/** How many entries a brain holds across its sections. */
export function entryCount(brain: Brain): number {
  return Object.values(brain.sections).reduce((n, s) => n + (s?.length ?? 0), 0);
}

/** Every observation id a brain's entries cite. */
export function citedIds(brain: Brain): Set<string> {
  const out = new Set<string>();
  for (const section of Object.values(brain.sections))
    for (const e of section ?? []) for (const id of e.observation_ids) out.add(id);
  return out;
}

/**
 * Keeps only the entries whose every citation is in `allowed` (what the synthesis fed the model:
 * its observations and the current brain's citations, [G3]); an entry citing anything else is
 * dropped, and empty sections go with it. Returns the brain and how many entries were dropped.
 */
export function dropUncited(brain: Brain, allowed: ReadonlySet<string>): { brain: Brain; dropped: number } {
  let dropped = 0;
  const sections: Brain['sections'] = {};
  for (const [name, entries] of Object.entries(brain.sections)) {
    const kept = (entries ?? []).filter((e) => e.observation_ids.every((id) => allowed.has(id)));
    dropped += (entries?.length ?? 0) - kept.length;
    if (kept.length) sections[name] = kept;
  }
  return { brain: { ...brain, sections }, dropped };
}
