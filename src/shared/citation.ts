/**
 * How a citation reads to a person: "pricing.xlsx, Q3 rows 2-40", "people.csv, rows 2-40",
 * "deck.pptx, slide 4" or "handbook.pdf, page 3, lines 4-9"; a connected repository's document by
 * its path there and commit ("benefits/pto.md, lines 4-9, at 9fceb02").
 */
import type { Citation } from './types.ts';

export function describeCitation(c: Citation | null | undefined): string {
  if (!c) return '';
  const parts = [c.repo?.path ?? c.fileLabel];
  if (c.page) parts.push(`page ${c.page}`);
  if (c.locator?.type === 'xlsx')
    parts.push(`${c.locator.sheet} rows ${c.locator.rowStart}-${c.locator.rowEnd}`);
  if (c.locator?.type === 'csv') parts.push(`rows ${c.locator.rowStart}-${c.locator.rowEnd}`);
  if (c.locator?.type === 'pptx') parts.push(`slide ${c.locator.slide}`);
  // A slide is the place a person looks for; the deck text's line numbers would only mislead.
  else if (c.lineStart) parts.push(`lines ${c.lineStart}-${c.lineEnd}`);
  if (c.repo?.commit) parts.push(`at ${c.repo.commit.slice(0, 7)}`);
  return parts.filter(Boolean).join(', ');
}
