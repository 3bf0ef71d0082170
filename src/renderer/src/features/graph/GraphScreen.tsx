import { Network } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { GraphView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import { type FocusRequest, GraphCanvas } from './GraphCanvas.tsx';
import { type GraphFilters, GraphToolbar } from './GraphToolbar.tsx';
import {
  type BrainGraph,
  buildGraph,
  mergeNeighborhood,
  type Positions,
  rememberPositions,
  STORAGE_KIND_LABELS,
  searchNodes,
} from './graph-model.ts';
import { iterationsFor, type LayoutHandle, startLayout } from './layout-client.ts';

/** The interactive budget: 10,000 nodes (and their edges) stay smooth in WebGL. */
const NODE_LIMIT = 10_000;
const EXPAND_LIMIT = 200;

const DEFAULT_FILTERS: GraphFilters = {
  storageKinds: ['file', 'note', 'entity'],
  kinds: [],
  edgeTypes: [],
  scopes: [],
};

function useLayout(graph: BrainGraph | null, notify: (text: string, tone?: 'error') => void) {
  const handle = useRef<LayoutHandle | null>(null);
  const [state, setState] = useState<{ status: 'running' | 'done' | 'failed'; tick: number }>({
    status: 'done',
    tick: 0,
  });
  const run = useCallback(
    (g: BrainGraph, iterations: number) => {
      handle.current?.stop();
      setState((s) => ({ status: 'running', tick: s.tick }));
      handle.current = startLayout(g, iterations, {
        onProgress: (_n, done) => setState((s) => ({ status: done ? 'done' : 'running', tick: s.tick + 1 })),
        onError: (message) => {
          setState((s) => ({ status: 'failed', tick: s.tick }));
          notify(`The graph layout stopped: ${message}`, 'error');
        },
      });
    },
    [notify],
  );
  useEffect(() => {
    if (graph && graph.order > 0) run(graph, iterationsFor(graph.order));
    return () => handle.current?.stop();
  }, [graph, run]);
  return { ...state, run };
}

/** The Graph screen: everything the user can see, laid out off the main thread, a click away from a dossier. */
export function GraphScreen() {
  const app = useApp();
  const [filters, setFilters] = useState<GraphFilters>(DEFAULT_FILTERS);
  const input = useMemo(
    () => ({
      limit: NODE_LIMIT,
      storageKinds: filters.storageKinds,
      ...(filters.kinds.length ? { kinds: filters.kinds } : {}),
      ...(filters.edgeTypes.length ? { edgeTypes: filters.edgeTypes } : {}),
      ...(filters.scopes.length ? { scopes: filters.scopes } : {}),
    }),
    [filters],
  );
  const view = useCall('graph.get', input, { refetchOn: ['files.changed'], throttleMs: 3000 });
  const positions = useRef<Positions>(new Map());
  const [graph, setGraph] = useState<BrainGraph | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const [facets, setFacets] = useState<GraphView['facets'] | null>(null);
  const [expanding, setExpanding] = useState(false);
  const [fit, setFit] = useState(0);
  const focusSeq = useRef(0);
  const layout = useLayout(graph, app.notify);

  useEffect(() => {
    if (!view.data) return;
    setGraph((prev) => {
      if (prev) rememberPositions(prev, positions.current);
      return buildGraph(view.data as GraphView, positions.current).graph;
    });
    setFacets(view.data.facets);
  }, [view.data]);

  const matches = useCallback(
    (query: string) =>
      graph
        ? searchNodes(graph, query).map((id) => {
            const a = graph.getNodeAttributes(id);
            return { id, label: a.label, detail: `${a.kind} · ${a.scope}` };
          })
        : [],
    [graph],
  );

  const focusNode = useCallback((id: string) => {
    setSelected(id);
    setFocus({ id, seq: ++focusSeq.current });
  }, []);

  const expand = async () => {
    if (!graph || !selected) return;
    setExpanding(true);
    try {
      // Expanding unfolds everything next to the node, sections included, within the other filters.
      const around = await call('graph.get', {
        ...input,
        storageKinds: ['file', 'section', 'note', 'entity'],
        around: selected,
        hops: 1,
        limit: EXPAND_LIMIT,
      });
      const added = mergeNeighborhood(graph, around, selected);
      app.notify(
        added.length
          ? `Added ${plural(added.length, 'node')} around ${graph.getNodeAttribute(selected, 'label')}`
          : 'Everything around it is already shown',
        'success',
      );
      if (added.length) layout.run(graph, 80);
    } catch (err) {
      app.notify(`Could not expand: ${err instanceof Error ? err.message : String(err)}`, 'error');
    } finally {
      setExpanding(false);
    }
  };

  const data = view.data;
  const counts = graph ? `${plural(graph.order, 'node')} · ${plural(graph.size, 'edge')}` : '';
  return (
    <section className="graph-screen" aria-label="Graph">
      <GraphToolbar
        filters={filters}
        facets={facets}
        onFilters={setFilters}
        matches={matches}
        onFocus={focusNode}
        canExpand={!!selected && !expanding}
        onExpand={() => void expand()}
        onFit={() => {
          setSelected(null);
          setFocus(null);
          setFit((n) => n + 1);
        }}
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
          <div className="empty">
            <div className="empty__art" aria-hidden="true">
              <Network size={28} />
            </div>
            <h2 className="empty__title">Nothing to draw yet</h2>
            <p className="empty__text">
              Files, notes and the people, companies and projects agents mention appear here. Add files, or
              let an agent record mentions with brain_observe_mention.
            </p>
          </div>
        ) : (
          <GraphCanvas
            graph={graph}
            selected={selected}
            focus={focus}
            fit={fit}
            tick={layout.tick}
            layout={layout.status}
            onClickNode={(id) => {
              setSelected(id);
              app.openDossier(id, 'select');
            }}
            onClickStage={() => setSelected(null)}
          />
        )}
        {graph && graph.order > 0 ? (
          <>
            <ul className="graph-legend" aria-label="Legend">
              {filters.storageKinds.map((k) => (
                <li key={k}>
                  <span className={`graph-dot graph-dot--${k}`} aria-hidden="true" />
                  {STORAGE_KIND_LABELS[k]}
                </li>
              ))}
            </ul>
            <p className="graph-status" aria-live="polite">
              <span>{counts}</span>
              {data?.truncated ? (
                <span> · showing the best-connected {NODE_LIMIT.toLocaleString()}</span>
              ) : null}
              <span>
                {' · '}
                {layout.status === 'running'
                  ? 'Laying out…'
                  : layout.status === 'failed'
                    ? 'Layout stopped'
                    : 'Layout done'}
              </span>
            </p>
          </>
        ) : null}
      </div>
    </section>
  );
}
