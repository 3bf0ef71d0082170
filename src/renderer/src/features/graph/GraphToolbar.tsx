import { Expand, Focus, PanelRightOpen, RefreshCw } from 'lucide-react';
import type { GraphView } from '#shared/api/types.ts';
import type { StorageKind } from '#shared/types.ts';
import { FilterMenu } from '../files/FilterMenu.tsx';
import { STORAGE_KIND_LABELS } from './graph-model.ts';
import { type NodeMatch, NodeSearch } from './NodeSearch.tsx';
import './graph.css';

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
  matches: (query: string) => NodeMatch[];
  onFocus: (id: string) => void;
  /** The selected node's label: Open shows its dossier, as a click on the node does. */
  selectedLabel: string | null;
  onOpen: () => void;
  canExpand: boolean;
  onExpand: () => void;
  onFit: () => void;
  onRefresh: () => void;
};

const ALL_KINDS: StorageKind[] = ['file', 'section', 'note', 'entity'];

/**
 * Filter chips (storage kind), facet menus (kind, edge type, scope), search-to-focus (NodeSearch.tsx),
 * Open (the selected node's dossier: the keyboard's way to what a click on a node does) and expand.
 */
export function GraphToolbar(props: GraphToolbarProps) {
  const { filters, facets, onFilters } = props;

  const toggleKind = (k: StorageKind) => {
    const has = filters.storageKinds.includes(k);
    const next = has ? filters.storageKinds.filter((x) => x !== k) : [...filters.storageKinds, k];
    if (next.length) onFilters({ ...filters, storageKinds: ALL_KINDS.filter((x) => next.includes(x)) });
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
      <NodeSearch matches={props.matches} onPick={props.onFocus} />
      <button
        type="button"
        className="button"
        onClick={props.onOpen}
        disabled={props.selectedLabel === null}
        aria-label={props.selectedLabel !== null ? `Open ${props.selectedLabel}` : 'Open the selected node'}
        title={
          props.selectedLabel !== null
            ? `Open ${props.selectedLabel} on the right`
            : 'Find or click a node first'
        }
      >
        <PanelRightOpen size={14} aria-hidden="true" />
        Open
      </button>
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
