import { Network } from 'lucide-react';
import { useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { GraphCanvas } from './GraphCanvas.tsx';
import { GraphLegend } from './GraphLegend.tsx';
import { GraphToolbar } from './GraphToolbar.tsx';
import { NODE_LIMIT, useGraph } from './use-graph.ts';
import './graph.css';

/** The Graph screen: everything the user can see, laid out off the main thread, a click away from a dossier. */
export function GraphScreen() {
  const app = useApp();
  const g = useGraph();
  const { view, graph, layout } = g;
  const data = view.data;
  return (
    <section className="graph-screen" aria-label="Graph">
      <GraphToolbar
        filters={g.filters}
        facets={g.facets}
        onFilters={g.setFilters}
        matches={g.matches}
        onFocus={g.focusNode}
        selectedLabel={
          g.selected && graph?.hasNode(g.selected) ? graph.getNodeAttribute(g.selected, 'label') : null
        }
        onOpen={() => {
          if (g.selected) app.openDossier(g.selected, 'select');
        }}
        canExpand={g.canExpand}
        onExpand={() => void g.expand()}
        onFit={g.showAll}
        onRefresh={view.refresh}
      />
      <div className="graph-stage">
        {view.error && !data ? (
          <div className="graph-stage__overlay">
            <ErrorNotice error={view.error} title="Could not load the graph" onRetry={view.refresh} />
          </div>
        ) : !graph ? (
          <div className="graph-stage__overlay">
            <Skeleton lines={4} label="Loading the graph" />
          </div>
        ) : graph.order === 0 ? (
          <NothingToDraw />
        ) : (
          <GraphCanvas
            graph={graph}
            selected={g.selected}
            focus={g.focus}
            fit={g.fit}
            tick={layout.tick}
            layout={layout.status}
            onClickNode={(id) => {
              g.setSelected(id);
              app.openDossier(id, 'select');
            }}
            onClickStage={() => g.setSelected(null)}
          />
        )}
        {graph && graph.order > 0 ? (
          <GraphLegend
            graph={graph}
            storageKinds={g.filters.storageKinds}
            truncated={data?.truncated === true}
            limit={NODE_LIMIT}
            layout={layout.status}
          />
        ) : null}
      </div>
    </section>
  );
}

function NothingToDraw() {
  return (
    <div className="empty">
      <div className="empty__art" aria-hidden="true">
        <Network size={28} />
      </div>
      <h2 className="empty__title">Nothing to draw yet</h2>
      <p className="empty__text">
        Files, notes and the people, companies and projects agents mention appear here. Add files, or let an
        agent record mentions with brain_observe_mention.
      </p>
    </div>
  );
}
