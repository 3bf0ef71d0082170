import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  extendTo,
  isSelected,
  moveFocus,
  selectAll,
  selectedIndices,
  selectionCount,
  selectOnly,
  toggle,
} from './selection.ts';

describe('selection model', () => {
  it('a click selects one row and anchors there', () => {
    const s = selectOnly(4);
    expect(selectedIndices(s)).toEqual([4]);
    expect(s.anchor).toBe(4);
  });

  it('shift+click selects from the anchor, in either direction', () => {
    expect(selectedIndices(extendTo(selectOnly(4), 7))).toEqual([4, 5, 6, 7]);
    expect(selectedIndices(extendTo(selectOnly(4), 2))).toEqual([2, 3, 4]);
  });

  it('a second shift+click replaces the range but keeps the anchor', () => {
    const s = extendTo(extendTo(selectOnly(4), 9), 6);
    expect(selectedIndices(s)).toEqual([4, 5, 6]);
    expect(s.anchor).toBe(4);
  });

  it('ctrl+click adds and removes single rows', () => {
    let s = toggle(selectOnly(1), 5);
    expect(selectedIndices(s)).toEqual([1, 5]);
    s = toggle(s, 1);
    expect(selectedIndices(s)).toEqual([5]);
  });

  it('ctrl+click splits a range', () => {
    const s = toggle(extendTo(selectOnly(0), 4), 2);
    expect(s.ranges).toEqual([
      { start: 0, end: 1 },
      { start: 3, end: 4 },
    ]);
    expect(selectionCount(s)).toBe(4);
  });

  it('ctrl+shift+click adds a range to the selection', () => {
    const s = extendTo(toggle(selectOnly(0), 5), 7, true);
    expect(selectedIndices(s)).toEqual([0, 5, 6, 7]);
  });

  it('merges adjacent ranges', () => {
    const s = toggle(toggle(selectOnly(1), 2), 3);
    expect(s.ranges).toEqual([{ start: 1, end: 3 }]);
  });

  it('arrows move the cursor, clamped, and shift+arrows extend', () => {
    let s = moveFocus(EMPTY_SELECTION, 1, 10, false);
    expect(selectedIndices(s)).toEqual([0]);
    s = moveFocus(s, 1, 10, true);
    s = moveFocus(s, 1, 10, true);
    expect(selectedIndices(s)).toEqual([0, 1, 2]);
    s = moveFocus(s, -1, 10, true);
    expect(selectedIndices(s)).toEqual([0, 1]);
    s = moveFocus(selectOnly(9), 5, 10, false);
    expect(s.focus).toBe(9);
    expect(moveFocus(EMPTY_SELECTION, -1, 10, false).focus).toBe(9);
    expect(moveFocus(s, 1, 0, false)).toEqual(EMPTY_SELECTION);
  });

  it('select all of 100,000 rows is one range', () => {
    const s = selectAll(100_000);
    expect(s.ranges).toHaveLength(1);
    expect(selectionCount(s)).toBe(100_000);
    expect(isSelected(s, 99_999)).toBe(true);
    expect(selectedIndices(s, 3)).toEqual([0, 1, 2]);
  });
});
