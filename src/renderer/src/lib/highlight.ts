/**
 * Highlighting without HTML: a text and character ranges become plain segments, each either marked or
 * not. Components render marked segments inside <mark> as text nodes, so file text is never parsed.
 */
export type Range = { start: number; end: number };
export type Segment = { text: string; start: number; mark: boolean };

/** Clamps ranges to [0, length], drops empty ones, sorts and merges overlapping or touching ones. */
export function normalizeRanges(ranges: readonly Range[], length: number): Range[] {
  const clamped = ranges
    .map((r) => ({
      start: Math.max(0, Math.min(length, r.start)),
      end: Math.max(0, Math.min(length, r.end)),
    }))
    .filter((r) => Number.isFinite(r.start) && Number.isFinite(r.end) && r.end > r.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Range[] = [];
  for (const r of clamped) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/** Splits `text` into marked and unmarked segments that concatenate back to `text`. */
export function splitHighlights(text: string, ranges: readonly Range[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const r of normalizeRanges(ranges, text.length)) {
    if (r.start > at) segments.push({ text: text.slice(at, r.start), start: at, mark: false });
    segments.push({ text: text.slice(r.start, r.end), start: r.start, mark: true });
    at = r.end;
  }
  if (at < text.length || segments.length === 0)
    segments.push({ text: text.slice(at), start: at, mark: false });
  return segments;
}

/**
 * Ranges where any of the words of `query` occur in `text` (case-insensitive, whole words of 2+ letters).
 * Used where the host gives no ranges of its own (palette results).
 */
export function findWordRanges(text: string, query: string): Range[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])];
  if (words.length === 0) return [];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const ranges: Range[] = [];
  for (const m of text.matchAll(re)) ranges.push({ start: m.index, end: m.index + m[0].length });
  return ranges;
}
