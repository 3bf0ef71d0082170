/**
 * The sigma.js renderer on a container, and its camera. Selection is drawn by reducers: the selected node
 * and its neighbours keep their colour and labels, everything else fades. The camera state is mirrored
 * on the container (`data-camera`) so tests and tools can tell a pan happened. A focus request moves the
 * camera to a node and keeps it there while the layout still moves it; `fit` shows the whole graph again.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';
import Sigma from 'sigma';
import type { BrainGraph, EdgeAttrs, NodeAttrs } from './graph-model.ts';

/** Up to this many nodes every label is drawn. */
const SMALL_GRAPH = 300;

export type FocusRequest = { id: string; seq: number };

export type SigmaInput = {
  graph: BrainGraph;
  selected: string | null;
  focus: FocusRequest | null;
  fit: number;
  tick: number;
  onClickNode: (id: string) => void;
  onClickStage: () => void;
};

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function createRenderer(
  graph: BrainGraph,
  container: HTMLDivElement,
  selectedRef: RefObject<string | null>,
): Sigma<NodeAttrs, EdgeAttrs> {
  const labelColor = cssVar('--fg', '#1d1d1b');
  const faded = cssVar('--border-strong', '#d3d2cd');
  return new Sigma<NodeAttrs, EdgeAttrs>(graph, container, {
    settings: {
      hideEdgesOnMove: graph.size > 5000,
      hideLabelsOnMove: graph.order > 5000,
      // A small graph names every node; a big one only the nodes large enough on screen.
      labelRenderedSizeThreshold: graph.order <= SMALL_GRAPH ? 0 : 7,
      labelDensity: 0.4,
      minCameraRatio: 0.005,
      maxCameraRatio: 20,
      // Node sizes are pixels on screen (sigma 4 measures them in graph units by default, which
      // makes a five-node map all discs).
      itemSizesReference: 'screen',
    },
    nodeReducer: (id, data, _attrs, _state, _gs, g) => {
      const sel = selectedRef.current;
      const out: Partial<typeof data> = { labelColor };
      if (!sel || !g.hasNode(sel)) return out;
      if (id === sel)
        return {
          ...out,
          highlighted: true,
          labelVisibility: 'visible',
          zIndex: 2,
          size: data.size * 1.5,
        };
      if (g.areNeighbors(id, sel)) return { ...out, labelVisibility: 'visible', zIndex: 1 };
      return { ...out, color: faded, labelVisibility: 'hidden', zIndex: 0 };
    },
    edgeReducer: (id, data, _attrs, _state, _gs, g) => {
      const sel = selectedRef.current;
      if (!sel || !g.hasNode(sel)) return {};
      return g.hasExtremity(id, sel)
        ? { size: Math.max(1.5, data.size * 1.5), zIndex: 1 }
        : { visibility: 'hidden' };
    },
  });
}

/** Returns the container's ref, why the graph cannot be drawn (no WebGL 2), and a pointer-down handler. */
export function useSigma({ graph, selected, focus, fit, tick, onClickNode, onClickStage }: SigmaInput) {
  const box = useRef<HTMLDivElement>(null);
  const sigma = useRef<Sigma<NodeAttrs, EdgeAttrs> | null>(null);
  const selectedRef = useRef(selected);
  const handlers = useRef({ onClickNode, onClickStage });
  const following = useRef<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  handlers.current = { onClickNode, onClickStage };
  selectedRef.current = selected;

  useEffect(() => {
    const container = box.current;
    if (!container) return;
    let renderer: Sigma<NodeAttrs, EdgeAttrs>;
    try {
      renderer = createRenderer(graph, container, selectedRef);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
      return;
    }
    setProblem(null);
    sigma.current = renderer;
    renderer.on('clickNode', ({ node }) => handlers.current.onClickNode(node));
    renderer.on('clickStage', () => handlers.current.onClickStage());
    renderer.on('enterNode', () => container.classList.add('is-pointing'));
    renderer.on('leaveNode', () => container.classList.remove('is-pointing'));
    const camera = renderer.getCamera();
    let frame = 0;
    const mirror = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const s = camera.getState();
        container.dataset.camera = `${s.x.toFixed(4)},${s.y.toFixed(4)},${s.ratio.toFixed(4)}`;
      });
    };
    camera.on('updated', mirror);
    mirror();
    return () => {
      if (frame) cancelAnimationFrame(frame);
      camera.removeListener('updated', mirror);
      renderer.kill();
      sigma.current = null;
    };
  }, [graph]);

  useEffect(() => {
    void selected;
    sigma.current?.refresh({ skipIndexation: true });
  }, [selected]);

  useEffect(() => {
    const renderer = sigma.current;
    if (!focus || !renderer || !graph.hasNode(focus.id)) return;
    following.current = focus.id;
    const d = renderer.getNodeDisplayData(focus.id);
    // Closer for big maps, barely for small ones, so the node stays a node.
    const ratio = Math.min(0.6, 8 / Math.sqrt(graph.order));
    if (d) void renderer.getCamera().animate({ x: d.x, y: d.y, ratio }, { duration: 350 });
  }, [focus, graph]);

  useEffect(() => {
    if (!fit) return;
    following.current = null;
    void sigma.current?.getCamera().reset({ duration: 300 });
  }, [fit]);

  // While the layout still moves things, keep the focused node in the middle.
  useEffect(() => {
    void tick;
    const renderer = sigma.current;
    const id = following.current;
    if (!renderer || !id || !graph.hasNode(id)) return;
    const d = renderer.getNodeDisplayData(id);
    const camera = renderer.getCamera();
    if (d && Number.isFinite(d.x) && Number.isFinite(d.y) && !camera.isAnimating())
      camera.setState({ x: d.x, y: d.y });
  }, [tick, graph]);

  const stopFollowing = () => {
    following.current = null;
  };
  return { box, problem, stopFollowing };
}
