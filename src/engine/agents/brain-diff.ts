/**
 * Comparing two brain versions (docs/AGENTS.md [G6]): per section, the entries of the newer one
 * that the older lacks (added) and those of the older it lacks (removed). Entries are the same when
 * their text is, whitespace aside; a changed citation alone is no change.
 */
import type { Brain, BrainEntry } from './brain-schema.ts';
import { KNOWN_SECTIONS } from './brain-schema.ts';

export type SectionDiff = { section: string; added: BrainEntry[]; removed: BrainEntry[] };

const key = (e: BrainEntry) => e.text.replace(/\s+/g, ' ').trim();

function sectionOrder(names: Set<string>): string[] {
  const known: string[] = KNOWN_SECTIONS.filter((s) => names.has(s));
  return [...known, ...[...names].filter((n) => !known.includes(n)).sort()];
}

/** The sections that differ between `from` and `to`, known sections first. */
export function diffBrains(from: Brain, to: Brain): SectionDiff[] {
  const names = new Set([...Object.keys(from.sections), ...Object.keys(to.sections)]);
  const out: SectionDiff[] = [];
  for (const section of sectionOrder(names)) {
    const before = from.sections[section] ?? [];
    const after = to.sections[section] ?? [];
    const had = new Set(before.map(key));
    const has = new Set(after.map(key));
    const added = after.filter((e) => !had.has(key(e)));
    const removed = before.filter((e) => !has.has(key(e)));
    if (added.length || removed.length) out.push({ section, added, removed });
  }
  return out;
}
