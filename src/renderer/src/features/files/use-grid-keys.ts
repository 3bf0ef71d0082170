/**
 * The file grid's keyboard and mouse, for the table and the tiles (FileTiles.tsx): arrows, Page Up/Down,
 * Home/End move the cursor (Shift extends the selection; in tiles Left/Right move by one and Up/Down by a
 * line of tiles), Space toggles the cursor row, Ctrl/Cmd+A selects every row, Enter opens the row's dossier,
 * I indexes the selection, U asks for the password of the cursor row when it needs one, and Delete asks to remove it.
 * A click selects and opens, Ctrl/Cmd+click toggles, Shift+click extends, and each leaves the focus on the grid.
 */
import { type KeyboardEvent, type MouseEvent, type RefObject, useEffect, useRef } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import { extendTo, moveFocus, type Selection, selectAll, selectOnly, toggle } from '../../lib/selection.ts';
import type { FileRows } from './useFileRows.ts';

export type GridKeysInput = {
  rows: FileRows;
  total: number;
  /** The height of one line: a row of the table, or a line of tiles. */
  rowHeight: number;
  /** Files on one line: 1 in the table, as many as fit in the tiles. */
  columns?: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  selection: Selection;
  onSelection: (next: Selection) => void;
  onOpen: (row: FileRow) => void;
  onIndexSelection: () => void;
  onRemoveSelection: () => void;
  /** `U`: open the password form of this row (FileTable decides whether it needs one). */
  onUnlockRow: (row: FileRow) => void;
};

export function useGridKeys({
  rows,
  total,
  rowHeight,
  columns = 1,
  scrollRef,
  selection,
  onSelection,
  onOpen,
  onIndexSelection,
  onRemoveSelection,
  onUnlockRow,
}: GridKeysInput) {
  const focus = selection.focus;

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const lines = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    const page = lines * columns;
    const moves: Record<string, number> = {
      ArrowDown: columns,
      ArrowUp: -columns,
      PageDown: page,
      PageUp: -page,
      Home: -total,
      End: total,
      ...(columns > 1 ? { ArrowRight: 1, ArrowLeft: -1 } : {}),
    };
    const delta = moves[e.key];
    if (delta !== undefined) {
      e.preventDefault();
      onSelection(moveFocus(selection, delta, total, e.shiftKey));
      return;
    }
    if (e.key === 'Enter' && focus !== null) {
      const row = rows.getRow(focus);
      if (row) {
        e.preventDefault();
        onOpen(row);
      }
    } else if (e.key === ' ' && focus !== null) {
      e.preventDefault();
      onSelection(toggle(selection, focus));
    } else if ((e.key === 'a' || e.key === 'A') && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSelection(selectAll(total));
    } else if ((e.key === 'i' || e.key === 'I') && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      onIndexSelection();
    } else if ((e.key === 'u' || e.key === 'U') && focus !== null && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const row = rows.getRow(focus);
      if (row) {
        e.preventDefault();
        onUnlockRow(row);
      }
    } else if (e.key === 'Delete' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      onRemoveSelection();
    }
  };

  const onRowClick = (e: MouseEvent<HTMLElement>, index: number) => {
    // The keys are handled on the grid itself (FileTable.tsx), not on the box that scrolls it: a click
    // leaves the focus there, so the arrows, Enter, I and Delete go on from the clicked row.
    e.currentTarget.closest<HTMLElement>('[role="grid"]')?.focus({ preventScroll: true });
    if (e.shiftKey) onSelection(extendTo(selection, index, e.ctrlKey || e.metaKey));
    else if (e.ctrlKey || e.metaKey) onSelection(toggle(selection, index));
    else {
      onSelection(selectOnly(index));
      const row = rows.getRow(index);
      if (row) onOpen(row);
    }
  };

  return { onKeyDown, onRowClick };
}

/**
 * What both views do around their virtualizer: ask for the files from `first` to `last` (the ones
 * on screen) once they change, and scroll to the keyboard cursor's line when the cursor moves (or
 * the lines re-flow), never on a refresh, which must not yank the list back to it.
 */
export function useLoadAndFollow(
  rows: FileRows,
  total: number,
  first: number,
  last: number,
  focus: number | null,
  columns: number,
  scrollToLine: (line: number) => void,
): void {
  const { requestRange } = rows;
  useEffect(() => {
    if (total > 0) requestRange(first, last);
  }, [first, last, total, requestRange]);
  const totalRef = useRef(total);
  totalRef.current = total;
  const scrollRef = useRef(scrollToLine);
  scrollRef.current = scrollToLine;
  useEffect(() => {
    if (focus !== null && focus < totalRef.current) scrollRef.current(Math.floor(focus / columns));
  }, [focus, columns]);
}
