/**
 * Row selection for a virtual grid of possibly 100,000 rows, kept as sorted disjoint index ranges so that
 * "shift+click the last row" costs one range, not 100,000 ids. `anchor` is where a shift-range starts;
 * `focus` is the keyboard cursor.
 */
type IndexRange = { start: number; end: number };
export type Selection = { ranges: IndexRange[]; anchor: number | null; focus: number | null };

export const EMPTY_SELECTION: Selection = { ranges: [], anchor: null, focus: null };

function normalize(ranges: IndexRange[]): IndexRange[] {
  const sorted = ranges.filter((r) => r.end >= r.start).sort((a, b) => a.start - b.start);
  const out: IndexRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

function span(a: number, b: number): IndexRange {
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

export function isSelected(sel: Selection, index: number): boolean {
  return sel.ranges.some((r) => index >= r.start && index <= r.end);
}

export function selectionCount(sel: Selection): number {
  return sel.ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
}

/** Plain click: exactly this row. */
export function selectOnly(index: number): Selection {
  return { ranges: [{ start: index, end: index }], anchor: index, focus: index };
}

/** Ctrl/Cmd+click: flip one row, keep the rest; the row becomes the new anchor. */
export function toggle(sel: Selection, index: number): Selection {
  if (!isSelected(sel, index)) {
    return { ranges: normalize([...sel.ranges, { start: index, end: index }]), anchor: index, focus: index };
  }
  const ranges: IndexRange[] = [];
  for (const r of sel.ranges) {
    if (index < r.start || index > r.end) ranges.push(r);
    else {
      if (r.start < index) ranges.push({ start: r.start, end: index - 1 });
      if (index < r.end) ranges.push({ start: index + 1, end: r.end });
    }
  }
  return { ranges, anchor: index, focus: index };
}

/**
 * Shift+click (or shift+arrow): anchor..index. With `additive` (ctrl+shift) the range is added to what
 * was selected; otherwise it replaces it.
 */
export function extendTo(sel: Selection, index: number, additive = false): Selection {
  const anchor = sel.anchor ?? index;
  const range = span(anchor, index);
  return { ranges: additive ? normalize([...sel.ranges, range]) : [range], anchor, focus: index };
}

/** Arrow keys: move the cursor by `delta` within [0, total); with `extend` the selection follows. */
export function moveFocus(sel: Selection, delta: number, total: number, extend: boolean): Selection {
  if (total <= 0) return EMPTY_SELECTION;
  const from = sel.focus ?? (delta > 0 ? -1 : total);
  const next = Math.max(0, Math.min(total - 1, from + delta));
  return extend ? extendTo(sel, next) : selectOnly(next);
}

export function selectAll(total: number): Selection {
  if (total <= 0) return EMPTY_SELECTION;
  return { ranges: [{ start: 0, end: total - 1 }], anchor: 0, focus: total - 1 };
}

/** Every selected index in order (callers cap huge selections themselves). */
export function selectedIndices(sel: Selection, limit = Number.POSITIVE_INFINITY): number[] {
  const out: number[] = [];
  for (const r of sel.ranges) {
    for (let i = r.start; i <= r.end && out.length < limit; i++) out.push(i);
  }
  return out;
}
