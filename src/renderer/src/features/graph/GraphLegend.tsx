import type { StorageKind } from '#shared/types.ts';
import { plural } from '../../lib/format.ts';
import type { BrainGraph } from './graph-model.ts';
import { STORAGE_KIND_LABELS } from './graph-model.ts';
import type { LayoutStatus } from './use-graph.ts';
import './graph.css';

export type GraphLegendProps = {
  graph: BrainGraph;
  storageKinds: StorageKind[];
  truncated: boolean;
  limit: number;
  layout: LayoutStatus;
};

/** Below the map: what each colour is, and how many nodes and edges with the layout's progress. */
export function GraphLegend({ graph, storageKinds, truncated, limit, layout }: GraphLegendProps) {
  const counts = `${plural(graph.order, 'node')} · ${plural(graph.size, 'edge')}`;
  return (
    <>
      <ul className="graph-legend" aria-label="Legend">
        {storageKinds.map((k) => (
          <li key={k}>
            <span className={`graph-dot graph-dot--${k}`} aria-hidden="true" />
            {STORAGE_KIND_LABELS[k]}
          </li>
        ))}
      </ul>
      <p className="graph-status" aria-live="polite">
        <span>{counts}</span>
        {truncated ? <span> · showing the best-connected {limit.toLocaleString()}</span> : null}
        <span>
          {' · '}
          {layout === 'running' ? 'Laying out…' : layout === 'failed' ? 'Layout stopped' : 'Layout done'}
        </span>
      </p>
    </>
  );
}
