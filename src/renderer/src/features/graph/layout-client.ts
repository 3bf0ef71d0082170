/** Runs the ForceAtlas2 worker over a graph and writes the positions back as they arrive. */
import type { BrainGraph } from './graph-model.ts';
import type { LayoutMessage, LayoutRequest } from './layout.worker.ts';

export type LayoutHandle = { stop: () => void };
export type LayoutEvents = {
  onProgress: (iterations: number, done: boolean) => void;
  onError: (message: string) => void;
};

let seq = 0;

export function iterationsFor(nodes: number): number {
  return nodes > 5000 ? 80 : nodes > 1000 ? 200 : 400;
}

/** Lays out the whole graph (or, with `only`, moves just those nodes: the others stay pinned by speed). */
export function startLayout(graph: BrainGraph, iterations: number, events: LayoutEvents): LayoutHandle {
  const run = ++seq;
  const ids = graph.nodes();
  const index = new Map(ids.map((id, i) => [id, i]));
  const x = new Float32Array(ids.length);
  const y = new Float32Array(ids.length);
  ids.forEach((id, i) => {
    const a = graph.getNodeAttributes(id);
    x[i] = a.x;
    y[i] = a.y;
  });
  const edges = new Uint32Array(graph.size * 2);
  let k = 0;
  graph.forEachEdge((_e, _a, source, target) => {
    edges[k++] = index.get(source) ?? 0;
    edges[k++] = index.get(target) ?? 0;
  });
  let worker: Worker;
  try {
    worker = new Worker(new URL('./layout.worker.ts', import.meta.url), {
      type: 'module',
      name: 'graph-layout',
    });
  } catch (err) {
    events.onError(err instanceof Error ? err.message : String(err));
    return { stop: () => {} };
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    worker.terminate();
  };
  // Big graphs take the newest positions a few times a second: redrawing 10,000 nodes after every
  // batch would keep the main thread busy and make panning stutter.
  const every = ids.length > 5000 ? 1000 : ids.length > 2000 ? 400 : 0;
  let latest: Extract<LayoutMessage, { type: 'positions' }> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastApplied = 0;
  const apply = () => {
    timer = null;
    const msg = latest;
    latest = null;
    if (!msg || stopped) return;
    lastApplied = performance.now();
    graph.updateEachNodeAttributes(
      (id, a) => {
        const i = index.get(id);
        if (i === undefined) return a;
        const x = msg.x[i] ?? Number.NaN;
        const y = msg.y[i] ?? Number.NaN;
        if (Number.isFinite(x) && Number.isFinite(y)) {
          a.x = x;
          a.y = y;
        }
        return a;
      },
      { attributes: ['x', 'y'] },
    );
    events.onProgress(msg.iterations, msg.done);
    if (msg.done) stop();
  };
  worker.onmessage = (ev: MessageEvent<LayoutMessage>) => {
    const msg = ev.data;
    if (stopped || msg.run !== run) return;
    if (msg.type === 'error') {
      events.onError(msg.message);
      stop();
      return;
    }
    latest = msg;
    const wait = msg.done ? 0 : Math.max(0, lastApplied + every - performance.now());
    if (timer) clearTimeout(timer);
    if (wait === 0) apply();
    else timer = setTimeout(apply, wait);
  };
  worker.onerror = (ev) => {
    events.onError(ev.message || 'The layout worker could not start.');
    stop();
  };
  const request: LayoutRequest = { type: 'start', run, x, y, edges, iterations };
  worker.postMessage(request, [x.buffer, y.buffer, edges.buffer]);
  return { stop };
}
