/**
 * Where a memory or a passage of an answer points, for its chip and its [n]: a fact of an entity
 * (docs/FACTS.md [K15]) reads "fact about <entity>, from <source>" and opens its source at the words
 * that say it; anything else reads as its citation and opens the cited range.
 */
import type { FactMemory } from '#shared/api/types.ts';
import type { Citation } from '#shared/types.ts';
import { describeCitation } from '../../lib/format.ts';

type Span = { start: number; end: number };
/** Opens an item in the dossier, at a range of its own text when one is given. */
export type OpenCitation = (itemId: string, at?: Span) => void;
type Cited = { label: string; citation: Citation | null; fact?: FactMemory };

/** The source: its citation, else (a fact from a note) the note, else the item itself. */
export function sourceOf(c: Cited): string {
  return describeCitation(c.citation) ?? c.fact?.sourceLabel ?? c.label;
}

export function whereOf(c: Cited): string {
  return c.fact ? `fact about ${c.fact.entity}, from ${sourceOf(c)}` : sourceOf(c);
}

/** Opens what `c` cites; `id` is the item itself, for a memory with no citation. */
export function openCited(c: Cited, id: string, open: OpenCitation): void {
  if (c.fact) open(c.fact.source, c.fact.span ?? undefined);
  else open(c.citation?.itemId ?? id);
}
