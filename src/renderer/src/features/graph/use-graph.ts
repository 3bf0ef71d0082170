/**
 * The Graph screen's state: the filters and the graph.get they ask for (refetched as files change),
 * the graph built from it (keeping the positions of nodes already laid out), the selected and focused
 * node, and expanding a node's neighborhood.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { GraphView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import type { FocusRequest } from './GraphCanvas.tsx';
import type { GraphFilters } from './GraphToolbar.tsx';
import {
  type BrainGraph,
  buildGraph,
  mergeNeighborhood,
  type Positions,
  rememberPositions,
  searchNodes,
} from './graph-model.ts';
import { iterationsFor, type LayoutHandle, startLayout } from './layout-client.ts';

/** The interactive budget: 10,000 nodes (and their edges) stay smooth in WebGL. */
export const NODE_LIMIT = 10_000;
const EXPAND_LIMIT = 200;

const DEFAULT_FILTERS: GraphFilters = {
  storageKinds: ['file', 'note', 'entity'],
  kinds: [],
  edgeTypes: [],
  scopes: [],
};

export type LayoutStatus = 'running' | 'done' | 'failed';

/**
 * Runs the layout worker (layout-client.ts) whenever a new graph arrives, and on demand (after expanding
 * a neighborhood); `tick` counts the steps, so the canvas can follow a node as it moves.
 */
function useGraphLayout(graph: BrainGraph | null, notify: (text: string, tone?: 'error') => void) {
  const handle = useRef<LayoutHandle | null>(null);
  const [state, setState] = useState<{ status: LayoutStatus; tick: number }>({
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

export function useGraph() {
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
  const layout = useGraphLayout(graph, app.notify);

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

  const showAll = () => {
    setSelected(null);
    setFocus(null);
    setFit((n) => n + 1);
  };

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

  return {
    filters,
    setFilters,
    view,
    graph,
    facets,
    selected,
    setSelected,
    focus,
    fit,
    layout,
    matches,
    focusNode,
    showAll,
    canExpand: !!selected && !expanding,
    expand,
  };
}
