/**
 * The brain's published JSON Schema (docs/agent-brain.schema.json) and the zod schema the engine
 * checks a model's reply with (./brain-schema.ts) agree on field names, required fields, section
 * names and limits (docs/AGENTS.md [G3]).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRAIN_LIMITS, BrainEntrySchema, BrainSchema, KNOWN_SECTIONS, SECTION_NAME } from './brain-schema.ts';

type JsonSchema = {
  required?: string[];
  properties?: Record<string, JsonSchema & { maxLength?: number; maxItems?: number; minItems?: number }>;
  propertyNames?: { pattern: string };
  maxProperties?: number;
  maxItems?: number;
  $defs?: Record<string, JsonSchema>;
};

const file = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../docs/agent-brain.schema.json'), 'utf8'),
) as JsonSchema;

const required = (shape: Record<string, { isOptional(): boolean }>) =>
  Object.entries(shape)
    .filter(([, s]) => !s.isOptional())
    .map(([k]) => k)
    .sort();

describe('[G3] the brain schema', () => {
  it('[G3] docs/agent-brain.schema.json and the zod schema agree on field names and limits', () => {
    expect(Object.keys(file.properties ?? {}).sort()).toEqual(Object.keys(BrainSchema.shape).sort());
    expect((file.required ?? []).sort()).toEqual(required(BrainSchema.shape));
    const sections = file.properties?.sections as JsonSchema;
    expect(Object.keys(sections.properties ?? {})).toEqual([...KNOWN_SECTIONS]);
    expect(sections.propertyNames?.pattern).toBe(SECTION_NAME.source);
    expect(sections.maxProperties).toBe(BRAIN_LIMITS.sections);
    expect(file.properties?.summary?.maxLength).toBe(BRAIN_LIMITS.summaryChars);
    const entry = file.$defs?.entry as JsonSchema;
    expect(Object.keys(entry.properties ?? {}).sort()).toEqual(Object.keys(BrainEntrySchema.shape).sort());
    expect((entry.required ?? []).sort()).toEqual(required(BrainEntrySchema.shape));
    expect(entry.properties?.text?.maxLength).toBe(BRAIN_LIMITS.entryChars);
    expect(entry.properties?.observation_ids?.minItems).toBe(1);
    expect(entry.properties?.observation_ids?.maxItems).toBe(BRAIN_LIMITS.citesPerEntry);
    expect(file.$defs?.section?.maxItems).toBe(BRAIN_LIMITS.entriesPerSection);
  });

  it('[G3] a brain with a new snake_case section passes; a bad section name or an uncited entry does not', () => {
    const entry = { text: 'x', observation_ids: ['o_1'] };
    expect(
      BrainSchema.safeParse({ sections: { conventions: [entry], release_notes: [entry] } }).success,
    ).toBe(true);
    expect(BrainSchema.safeParse({ sections: { 'Bad Name': [entry] } }).success).toBe(false);
    expect(
      BrainSchema.safeParse({ sections: { gotchas: [{ text: 'x', observation_ids: [] }] } }).success,
    ).toBe(false);
    expect(BrainSchema.safeParse({ sections: {}, extra: 1 }).success).toBe(false);
  });
});
