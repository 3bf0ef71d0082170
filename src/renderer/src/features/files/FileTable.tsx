/**
 * The virtual file grid: an ARIA grid whose rows are rendered only where the viewport is (so 100,000
 * rows scroll like 100). Focus stays on the grid; the keyboard cursor is aria-activedescendant.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, Info } from 'lucide-react';
import { type KeyboardEvent, type MouseEvent, useEffect, useRef } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import { Tip } from '../../components/Tip.tsx';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import {
  extendTo,
  isSelected,
  moveFocus,
  type Selection,
  selectAll,
  selectOnly,
  toggle,
} from '../../lib/selection.ts';
import { FileKindIcon } from './FileKindIcon.tsx';
import type { FileQuery, SortKey } from './file-query.ts';
import { StateChip } from './StateChip.tsx';
import type { FileRows } from './useFileRows.ts';

const ROW_HEIGHT = 34;
const HEADER_HEIGHT = 32;

const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: 'name', label: 'Name', className: 'col-name' },
  { key: 'kind', label: 'Kind', className: 'col-kind' },
  { key: 'size', label: 'Size', className: 'col-size' },
  { key: 'addedBy', label: 'Added by', className: 'col-by' },
  { key: 'addedAt', label: 'Added', className: 'col-at' },
  { key: 'scope', label: 'Scope', className: 'col-scope' },
  { key: 'state', label: 'State', className: 'col-state' },
];

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
  openId: string | null;
};

export function FileTable({
  rows,
  query,
  onSort,
  selection,
  onSelection,
  onOpen,
  onIndexSelection,
  openId,
}: FileTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
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
  const { requestRange } = rows;

  useEffect(() => {
    if (total > 0) requestRange(first, last);
  }, [first, last, total, requestRange]);

  // Follow the keyboard cursor, but only when it moves: a refresh must not yank the list back to it.
  const focus = selection.focus;
  const totalRef = useRef(total);
  totalRef.current = total;
  useEffect(() => {
    if (focus !== null && focus < totalRef.current) virtualizer.scrollToIndex(focus, { align: 'auto' });
  }, [focus, virtualizer]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      Home: -total,
      End: total,
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
    }
  };

  const onRowClick = (e: MouseEvent, index: number) => {
    scrollRef.current?.focus({ preventScroll: true });
    if (e.shiftKey) onSelection(extendTo(selection, index, e.ctrlKey || e.metaKey));
    else if (e.ctrlKey || e.metaKey) onSelection(toggle(selection, index));
    else {
      onSelection(selectOnly(index));
      const row = rows.getRow(index);
      if (row) onOpen(row);
    }
  };

  return (
    <div ref={scrollRef} className="grid">
      <table
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
        <thead className="grid__head">
          <tr className="grid__row grid__row--head" aria-rowindex={1}>
            {COLUMNS.map((c) => {
              const active = query.sort === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={`grid__cell ${c.className}`}
                  aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button type="button" className="grid__sort" onClick={() => onSort(c.key)}>
                    {c.label}
                    {active ? (
                      query.dir === 'asc' ? (
                        <ArrowUp size={12} aria-hidden="true" />
                      ) : (
                        <ArrowDown size={12} aria-hidden="true" />
                      )
                    ) : null}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
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
                {row ? <Cells row={row} phase={rows.phases.get(row.id)} /> : <LoadingCells />}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Cells({ row, phase }: { row: FileRow; phase: ReturnType<FileRows['phases']['get']> }) {
  return (
    <>
      <td className="grid__cell col-name" title={row.path ?? row.label}>
        <FileKindIcon kind={row.kind} format={row.format} />
        <span className="ellipsis">{row.label}</span>
        {row.health.length > 0 ? (
          <Tip content={<HealthList notes={row.health} />}>
            <button
              type="button"
              className="health-icon"
              aria-label={`Ingest notes: ${row.health.join('; ')}`}
              tabIndex={-1}
              onClick={(e) => e.stopPropagation()}
            >
              <Info size={13} aria-hidden="true" />
            </button>
          </Tip>
        ) : null}
      </td>
      <td className="grid__cell col-kind">
        <span className="kind-tag">{row.kind}</span>
      </td>
      <td className="grid__cell col-size num">{formatBytes(row.size)}</td>
      <td className="grid__cell col-by ellipsis">{row.addedBy}</td>
      <td className="grid__cell col-at" title={formatDateTime(row.addedAt)}>
        {formatRelative(row.addedAt)}
      </td>
      <td className="grid__cell col-scope">
        <span className="scope-badge">{row.scope}</span>
      </td>
      <td className="grid__cell col-state">
        <StateChip state={row.state} phase={phase} reason={row.reason} />
      </td>
    </>
  );
}

function HealthList({ notes }: { notes: string[] }) {
  return (
    <ul className="tooltip__list">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

function LoadingCells() {
  return (
    <td className="grid__cell grid__cell--loading" aria-label="Loading">
      <span className="skeleton__line skeleton__line--inline" />
    </td>
  );
}
