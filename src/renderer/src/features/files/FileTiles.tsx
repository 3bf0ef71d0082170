/**
 * The Files screen as tiles (the table's other view, FileTable.tsx): one card per file with its
 * icon, name, kind, size, when it was added and its state, as many to a line as the screen is
 * wide. Virtual by lines, so 100,000 files scroll like 100. The same ARIA grid, selection and keys
 * as the table (use-grid-keys.ts): Left/Right move by one file, Up/Down by a line.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import { needsPassword } from '#shared/password.ts';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import { isSelected } from '../../lib/selection.ts';
import { HealthNotes, type UnlockControls } from './FileCells.tsx';
import { FileKindIcon } from './FileKindIcon.tsx';
import type { FileTableProps } from './FileTable.tsx';
import { COLUMNS, SortArrow } from './FileTableHead.tsx';
import { StateChip } from './StateChip.tsx';
import { NeedsPasswordChip, UnlockCell } from './UnlockCell.tsx';
import { useGridKeys, useLoadAndFollow } from './use-grid-keys.ts';
import { useUnlock } from './use-unlock.ts';
import type { PageProgress, Phase } from './useFileRows.ts';
import './file-tiles.css';

/** A tile's least width; the line's tiles share what is left over. */
const TILE_MIN_WIDTH = 220;
const TILE_HEIGHT = 104;
const GAP = 12;
/** The padding of the tiles' box, each side (file-tiles.css). */
const PAD = 20;

/** How many tiles fit on a line of a box this wide. */
export function tilesPerLine(width: number): number {
  return Math.max(1, Math.floor((width - 2 * PAD + GAP) / (TILE_MIN_WIDTH + GAP)));
}

export function FileTiles({
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
  const columns = useTilesPerLine(scrollRef);
  const total = rows.total ?? 0;
  const lines = Math.ceil(total / columns);
  const virtualizer = useVirtualizer({
    count: lines,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TILE_HEIGHT + GAP,
    overscan: 4,
    paddingStart: PAD,
    paddingEnd: PAD,
  });
  const items = virtualizer.getVirtualItems();
  const first = (items[0]?.index ?? 0) * columns;
  const last = Math.min(total - 1, ((items[items.length - 1]?.index ?? 0) + 1) * columns - 1);
  const focus = selection.focus;
  useLoadAndFollow(rows, total, first, last, focus, columns, (line) =>
    virtualizer.scrollToIndex(line, { align: 'auto' }),
  );

  const { onKeyDown, onRowClick } = useGridKeys({
    rows,
    total,
    rowHeight: TILE_HEIGHT + GAP,
    columns,
    scrollRef,
    selection,
    onSelection,
    onOpen,
    onIndexSelection,
    onRemoveSelection,
    onUnlockRow,
  });

  return (
    <div className="tiles-view">
      <SortBar query={query} onSort={onSort} />
      <div ref={scrollRef} className="tiles">
        <table
          ref={gridRef as RefObject<HTMLTableElement | null> | undefined}
          className="tiles__grid"
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a <table> with role=grid is the ARIA pattern for a keyboard-navigable table
          role="grid"
          aria-label="Files"
          aria-rowcount={lines}
          aria-colcount={columns}
          aria-multiselectable="true"
          aria-activedescendant={focus !== null && focus < total ? `file-tile-${focus}` : undefined}
          tabIndex={0}
          onKeyDown={onKeyDown}
        >
          <tbody className="tiles__body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((line) => (
              <tr
                key={line.key}
                aria-rowindex={line.index + 1}
                className="tiles__line"
                style={{
                  transform: `translateY(${line.start}px)`,
                  gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                }}
              >
                {Array.from({ length: columns }, (_, col) => line.index * columns + col)
                  .filter((index) => index < total)
                  .map((index) => {
                    const row = rows.getRow(index);
                    const selected = isSelected(selection, index);
                    const className = [
                      'tile',
                      selected ? 'is-selected' : '',
                      index === focus ? 'is-focus' : '',
                      row && row.id === openId ? 'is-open' : '',
                    ].join(' ');
                    return (
                      // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the grid (above) keeps the focus and takes the keys for every tile (aria-activedescendant), the ARIA grid pattern
                      <td
                        key={index}
                        id={`file-tile-${index}`}
                        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a tile is a gridcell of the role=grid table
                        role="gridcell"
                        aria-colindex={(index % columns) + 1}
                        aria-selected={selected}
                        aria-label={row ? undefined : 'Loading'}
                        className={className}
                        onClick={(e) => onRowClick(e, index)}
                      >
                        {row ? (
                          <Tile
                            row={row}
                            phase={rows.phases.get(row.id)}
                            progress={rows.pages.get(row.id)}
                            unlock={unlock}
                          />
                        ) : (
                          <span className="skeleton__line" />
                        )}
                      </td>
                    );
                  })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The tiles' width, kept as the window or the dossier pane resizes it. */
function useTilesPerLine(scrollRef: RefObject<HTMLDivElement | null>): number {
  const [columns, setColumns] = useState(1);
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const measure = () => setColumns(tilesPerLine(box.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [scrollRef]);
  return columns;
}

/** One file's card; a file waiting for its password shows the password form in its place. */
function Tile({
  row,
  phase,
  progress,
  unlock,
}: {
  row: FileRow;
  phase: Phase | undefined;
  progress: PageProgress | undefined;
  unlock: UnlockControls;
}) {
  const locked = row.state === 'failed' && needsPassword(row.reason) && phase === undefined;
  const head = (
    <div className="tile__head">
      <FileKindIcon kind={row.kind} format={row.format} size={22} />
      <span className="tile__name" title={row.path ?? row.label}>
        {row.label}
      </span>
      <HealthNotes notes={row.health} />
    </div>
  );
  if (locked && unlock.openId === row.id) {
    return (
      <>
        {head}
        <UnlockCell row={row} onDone={unlock.onDone} onCancel={unlock.onCancel} as="div" />
      </>
    );
  }
  return (
    <>
      {head}
      <div className="tile__meta">
        <span className="kind-tag">{row.kind}</span>
        <span>{formatBytes(row.size)}</span>
        <span className="ellipsis" title={`${row.addedBy} · ${formatDateTime(row.addedAt)}`}>
          {formatRelative(row.addedAt)}
        </span>
      </div>
      <div className="tile__foot">
        <span className="scope-badge">{row.scope}</span>
        {locked ? (
          <NeedsPasswordChip row={row} onOpen={() => unlock.onOpen(row)} />
        ) : (
          <StateChip state={row.state} phase={phase} progress={progress} reason={row.reason} />
        )}
      </div>
    </>
  );
}

/** The table's header, as a line of sort buttons: the sorted key pressed, with its direction. */
function SortBar({ query, onSort }: Pick<FileTableProps, 'query' | 'onSort'>) {
  return (
    <fieldset className="tiles__sort">
      <legend className="tiles__sort-label">Sort by</legend>
      {COLUMNS.map((c) => {
        const active = query.sort === c.key;
        return (
          <button
            key={c.key}
            type="button"
            className="grid__sort"
            aria-pressed={active}
            aria-label={
              active ? `${c.label}, ${query.dir === 'asc' ? 'ascending' : 'descending'}` : undefined
            }
            onClick={() => onSort(c.key)}
          >
            {c.label}
            {active ? <SortArrow dir={query.dir} /> : null}
          </button>
        );
      })}
    </fieldset>
  );
}
