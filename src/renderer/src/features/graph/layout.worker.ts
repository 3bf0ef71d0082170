/**
 * ForceAtlas2 off the main thread. Takes positions and edges as typed arrays, runs the layout in
 * batches and posts positions back after each, so the map settles while the window stays responsive.
 * A same-origin module worker (bundled by Vite): the CSP's script-src 'self' covers it, where the
 * library's own Blob-URL worker would be refused.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';

export type LayoutRequest = {
  type: 'start';
  run: number;
  x: Float32Array;
  y: Float32Array;
  /** Pairs of node indexes. */
  edges: Uint32Array;
  iterations: number;
};
export type LayoutMessage =
  | { type: 'positions'; run: number; x: Float32Array; y: Float32Array; done: boolean; iterations: number }
  | { type: 'error'; run: number; message: string };

type WorkerScope = {
  onmessage: ((ev: MessageEvent<LayoutRequest | { type: 'stop' }>) => void) | null;
  postMessage: (message: LayoutMessage, transfer?: Transferable[]) => void;
};
const scope = self as unknown as WorkerScope;

let current = 0;
const BATCH_MS = 60;

function run(req: LayoutRequest): void {
  current = req.run;
  const graph = new Graph({ type: 'undirected', multi: true });
  const n = req.x.length;
  for (let i = 0; i < n; i++) graph.addNode(i, { x: req.x[i], y: req.y[i] });
  for (let i = 0; i + 1 < req.edges.length; i += 2) {
    const a = req.edges[i] as number;
    const b = req.edges[i + 1] as number;
    if (a !== b) graph.addEdge(a, b);
  }
  const settings = { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: n > 1000 };
  let done = 0;
  let batch = n > 5000 ? 2 : 10;
  const step = () => {
    if (current !== req.run) return;
    try {
      const started = performance.now();
      forceAtlas2.assign(graph, { iterations: batch, settings });
      done += batch;
      const took = performance.now() - started;
      batch = Math.max(1, Math.min(50, Math.round((batch * BATCH_MS) / Math.max(1, took))));
      const x = new Float32Array(n);
      const y = new Float32Array(n);
      graph.forEachNode((key, a) => {
        const i = Number(key);
        x[i] = a.x as number;
        y[i] = a.y as number;
      });
      const finished = done >= req.iterations;
      scope.postMessage({ type: 'positions', run: req.run, x, y, done: finished, iterations: done }, [
        x.buffer,
        y.buffer,
      ]);
      if (!finished) setTimeout(step, 0);
    } catch (err) {
      scope.postMessage({
        type: 'error',
        run: req.run,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  };
  step();
}

scope.onmessage = (ev) => {
  if (ev.data.type === 'stop') current = -1;
  else run(ev.data);
};
