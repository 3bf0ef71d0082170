/** How a citation reads to a person: "pricing.xlsx, Q3 rows 2-40" or "handbook.pdf, page 3, lines 4-9". */
import type { Citation } from './types.ts';

export function describeCitation(c: Citation | null | undefined): string {
  if (!c) return '';
  const parts = [c.fileLabel];
  if (c.page) parts.push(`page ${c.page}`);
  if (c.locator?.type === 'xlsx')
    parts.push(`${c.locator.sheet} rows ${c.locator.rowStart}-${c.locator.rowEnd}`);
  if (c.lineStart) parts.push(`lines ${c.lineStart}-${c.lineEnd}`);
  return parts.filter(Boolean).join(', ');
}
