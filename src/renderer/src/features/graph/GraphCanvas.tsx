import type { BrainGraph } from './graph-model.ts';
import { type FocusRequest, useSigma } from './use-sigma.ts';
import './graph.css';

export type { FocusRequest } from './use-sigma.ts';

export type GraphCanvasProps = {
  graph: BrainGraph;
  selected: string | null;
  focus: FocusRequest | null;
  /** Bumped to show the whole graph again. */
  fit: number;
  /** Bumped on every layout step: a focused node is followed while the layout moves it. */
  tick: number;
  layout: 'running' | 'done' | 'failed';
  onClickNode: (id: string) => void;
  onClickStage: () => void;
};

/**
 * The WebGL canvas (sigma.js, use-sigma.ts), with its layout state and size on the element for tests and
 * tools, or why it cannot be drawn here.
 */
export function GraphCanvas(props: GraphCanvasProps) {
  const { graph, layout } = props;
  const { box, problem, stopFollowing } = useSigma(props);
  return (
    <div className="graph-stage__canvas-wrap">
      <div
        ref={box}
        className="graph-canvas"
        role="application"
        aria-label="Graph canvas"
        aria-roledescription="graph"
        data-layout={layout}
        data-nodes={graph.order}
        data-edges={graph.size}
        onPointerDown={stopFollowing}
      />
      {problem ? (
        <div className="graph-stage__overlay" role="alert">
          <p>
            <strong>The graph cannot be drawn here.</strong> It needs WebGL 2, which this window does not
            offer ({problem}). Entities and dossiers still work from the search box and the Files screen.
          </p>
        </div>
      ) : null}
    </div>
  );
}
