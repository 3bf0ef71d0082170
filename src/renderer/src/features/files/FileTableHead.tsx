import { ArrowDown, ArrowUp } from 'lucide-react';
import type { FileQuery, SortKey } from './file-query.ts';
import './file-table.css';

export const COLUMNS: { key: SortKey; label: string; className: string }[] = [
  { key: 'name', label: 'Name', className: 'col-name' },
  { key: 'kind', label: 'Kind', className: 'col-kind' },
  { key: 'size', label: 'Size', className: 'col-size' },
  { key: 'addedBy', label: 'Added by', className: 'col-by' },
  { key: 'addedAt', label: 'Added', className: 'col-at' },
  { key: 'scope', label: 'Scope', className: 'col-scope' },
  { key: 'state', label: 'State', className: 'col-state' },
];

export type FileTableHeadProps = { query: FileQuery; onSort: (key: SortKey) => void };

/** The grid's sticky header: one sort button per column, the sorted one with its direction. */
export function FileTableHead({ query, onSort }: FileTableHeadProps) {
  return (
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
                {active ? <SortArrow dir={query.dir} /> : null}
              </button>
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** The sorted key's direction. */
export function SortArrow({ dir }: { dir: FileQuery['dir'] }) {
  return dir === 'asc' ? (
    <ArrowUp size={12} aria-hidden="true" />
  ) : (
    <ArrowDown size={12} aria-hidden="true" />
  );
}
