/**
 * The virtual file grid: an ARIA grid whose rows are rendered only where the viewport is (so 100,000
 * rows scroll like 100). Focus stays on the grid; the keyboard cursor is aria-activedescendant.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useRef } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import type { FileRow } from '#shared/api/types.ts';
import { isSelected, type Selection } from '../../lib/selection.ts';
import { FileCells, LoadingCells } from './FileCells.tsx';
import { COLUMNS, FileTableHead } from './FileTableHead.tsx';
import type { FileQuery, SortKey } from './file-query.ts';
import { useGridKeys, useLoadAndFollow } from './use-grid-keys.ts';
import { useUnlock } from './use-unlock.ts';
import type { FileRows } from './useFileRows.ts';
import './file-table.css';

const ROW_HEIGHT = 34;
const HEADER_HEIGHT = 32;

export type FileTableProps = {
  rows: FileRows;
  query: FileQuery;
  onSort: (key: SortKey) => void;
  selection: Selection;
  onSelection: (next: Selection) => void;
  /** Open the dossier of a row (Enter, or a plain click). */
  onOpen: (row: FileRow) => void;
  /** `I`: index the selection. */
  onIndexSelection: () => void;
  /** `Delete`: ask to remove the selection. */
  onRemoveSelection: () => void;
  /** A file that needed a password was unlocked from its row (UnlockCell.tsx). */
  onUnlocked: (answer: Outputs['files.unlock']) => void;
  openId: string | null;
  /** The grid element (the table's, or the tiles'), so a dialog opened from elsewhere gives focus back to it. */
  gridRef?: RefObject<HTMLElement | null>;
};

export function FileTable({
  rows,
  query,
  onSort,
  selection,
  onSelection,
  onOpen,
  onIndexSelection,
  onRemoveSelection,
  onUnlocked,
  openId,
  gridRef,
}: FileTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { controls: unlock, onUnlockRow } = useUnlock(scrollRef, onUnlocked);
  const total = rows.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const focus = selection.focus;
  useLoadAndFollow(rows, total, first, last, focus, 1, (line) =>
    virtualizer.scrollToIndex(line, { align: 'auto' }),
  );

  const { onKeyDown, onRowClick } = useGridKeys({
    rows,
    total,
    rowHeight: ROW_HEIGHT,
    scrollRef,
    selection,
    onSelection,
    onOpen,
    onIndexSelection,
    onRemoveSelection,
    onUnlockRow,
  });

  return (
    <div ref={scrollRef} className="grid">
      <table
        ref={gridRef as RefObject<HTMLTableElement | null> | undefined}
        className="grid__table"
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a <table> with role=grid is the ARIA pattern for a keyboard-navigable table
        role="grid"
        aria-label="Files"
        aria-rowcount={total + 1}
        aria-colcount={COLUMNS.length}
        aria-multiselectable="true"
        aria-activedescendant={focus !== null && focus < total ? `file-row-${focus}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <FileTableHead query={query} onSort={onSort} />
        <tbody className="grid__body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) => {
            const row = rows.getRow(v.index);
            const selected = isSelected(selection, v.index);
            const className = [
              'grid__row',
              selected ? 'is-selected' : '',
              v.index === focus ? 'is-focus' : '',
              row && row.id === openId ? 'is-open' : '',
            ].join(' ');
            return (
              <tr
                key={v.key}
                id={`file-row-${v.index}`}
                aria-rowindex={v.index + 2}
                aria-selected={selected}
                className={className}
                style={{ transform: `translateY(${v.start - HEADER_HEIGHT}px)` }}
                onClick={(e) => onRowClick(e, v.index)}
              >
                {row ? (
                  <FileCells
                    row={row}
                    phase={rows.phases.get(row.id)}
                    progress={rows.pages.get(row.id)}
                    unlock={unlock}
                  />
                ) : (
                  <LoadingCells />
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
