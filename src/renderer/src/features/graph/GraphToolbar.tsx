import { Expand, Focus, RefreshCw, Search } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import type { GraphView } from '#shared/api/types.ts';
import type { StorageKind } from '#shared/types.ts';
import { FilterMenu } from '../files/FilterMenu.tsx';
import { STORAGE_KIND_LABELS } from './graph-model.ts';

export type GraphFilters = {
  storageKinds: StorageKind[];
  kinds: string[];
  edgeTypes: string[];
  scopes: string[];
};

export type GraphToolbarProps = {
  filters: GraphFilters;
  facets: GraphView['facets'] | null;
  onFilters: (next: GraphFilters) => void;
  /** Labels of the best matches for the search text, to pick from. */
  matches: (query: string) => { id: string; label: string; detail: string }[];
  onFocus: (id: string) => void;
  canExpand: boolean;
  onExpand: () => void;
  onFit: () => void;
  onRefresh: () => void;
};

const ALL_KINDS: StorageKind[] = ['file', 'section', 'note', 'entity'];

/** Filter chips (storage kind), facet menus (kind, edge type, scope), search-to-focus and expand. */
export function GraphToolbar(props: GraphToolbarProps) {
  const { filters, facets, onFilters } = props;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const found = query.trim() ? props.matches(query) : [];

  const toggleKind = (k: StorageKind) => {
    const has = filters.storageKinds.includes(k);
    const next = has ? filters.storageKinds.filter((x) => x !== k) : [...filters.storageKinds, k];
    if (next.length) onFilters({ ...filters, storageKinds: ALL_KINDS.filter((x) => next.includes(x)) });
  };
  const pick = (id: string) => {
    props.onFocus(id);
    setQuery('');
    setActive(0);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, found.length - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter' && found[active]) pick(found[active].id);
    else if (e.key === 'Escape' && query) {
      e.stopPropagation();
      setQuery('');
    } else return;
    e.preventDefault();
  };

  return (
    <div className="graph-toolbar" role="toolbar" aria-label="Graph filters">
      <fieldset className="graph-chips" aria-label="Storage kinds">
        {ALL_KINDS.map((k) => (
          <button
            key={k}
            type="button"
            className={filters.storageKinds.includes(k) ? 'graph-chip is-on' : 'graph-chip'}
            aria-pressed={filters.storageKinds.includes(k)}
            onClick={() => toggleKind(k)}
            title={
              k === 'section'
                ? 'Show sections as their own nodes (otherwise folded into their files)'
                : undefined
            }
          >
            <span className={`graph-dot graph-dot--${k}`} aria-hidden="true" />
            {STORAGE_KIND_LABELS[k]}
          </button>
        ))}
      </fieldset>
      <FilterMenu
        label="Kind"
        options={facets?.kinds ?? []}
        selected={filters.kinds}
        onChange={(kinds) => onFilters({ ...filters, kinds })}
      />
      <FilterMenu
        label="Edge type"
        options={facets?.edgeTypes ?? []}
        selected={filters.edgeTypes}
        onChange={(edgeTypes) => onFilters({ ...filters, edgeTypes })}
      />
      <FilterMenu
        label="Scope"
        options={facets?.scopes ?? []}
        selected={filters.scopes}
        onChange={(scopes) => onFilters({ ...filters, scopes })}
      />
      <span className="toolbar__spacer" />
      <div className="graph-search">
        <Search size={14} aria-hidden="true" className="graph-search__icon" />
        <input
          type="search"
          role="combobox"
          aria-label="Find a node"
          aria-expanded={found.length > 0}
          aria-controls="graph-search-results"
          aria-activedescendant={found[active] ? `graph-hit-${active}` : undefined}
          placeholder="Find a node…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        {found.length > 0 ? (
          <div
            className="graph-search__results"
            id="graph-search-results"
            role="listbox"
            aria-label="Matching nodes"
          >
            {found.map((m, i) => (
              <div
                key={m.id}
                id={`graph-hit-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                className={i === active ? 'graph-search__hit is-active' : 'graph-search__hit'}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(m.id)}
                onKeyDown={() => {}}
              >
                <span className="ellipsis">{m.label}</span>
                <span className="muted">{m.detail}</span>
              </div>
            ))}
          </div>
        ) : null}
      </div>
      <button type="button" className="button" onClick={props.onExpand} disabled={!props.canExpand}>
        <Expand size={14} aria-hidden="true" />
        Expand neighborhood
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={props.onFit}
        aria-label="Show the whole graph"
        title="Show all"
      >
        <Focus size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button"
        onClick={props.onRefresh}
        aria-label="Reload the graph"
        title="Reload"
      >
        <RefreshCw size={15} aria-hidden="true" />
      </button>
    </div>
  );
}
