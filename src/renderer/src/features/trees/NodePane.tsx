import { BookOpen } from 'lucide-react';
import { useEffect } from 'react';
import { useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { call } from '../../lib/api.ts';
import { Backlinks } from './Backlinks.tsx';
import { NodeHeader } from './NodeHeader.tsx';
import { NodeLinks } from './NodeLinks.tsx';
import { NodeText } from './NodeText.tsx';
import { isFolderish } from './tree-format.ts';
import { useNodeRead } from './use-node-read.ts';

export type NodePaneProps = {
  tree: string;
  node: string;
  /** The repository's name, for the root's breadcrumb. */
  rootTitle: string;
  onSelect: (id: string) => void;
  /** The ancestors of the node read, so the tree pane can show it in place. */
  onReveal: (ancestors: string[]) => void;
};

/** One node read (trees.read): where it is, its numbered text, its children, links and backlinks. */
export function NodePane({ tree, node, rootTitle, onSelect, onReveal }: NodePaneProps) {
  const { notify } = useApp();
  const { read, segments, truncated, nextLine, readOn } = useNodeRead(tree, node);
  const data = read.data;

  useEffect(() => {
    if (data) onReveal(data.breadcrumb.map((c) => c.id));
  }, [data, onReveal]);

  const find = async (query: string) => {
    try {
      const found = await call('trees.lookup', { tree, query });
      const first = found.matches[0];
      if (first) onSelect(first.node.id);
      else notify(`Nothing in this tree is named ${query}`);
    } catch (err) {
      notify(`Could not find ${query}: ${err instanceof Error ? err.message : String(err)}`, 'error');
    }
  };

  if (read.error && !data)
    return (
      <div className="node-pane__pad">
        <ErrorNotice error={read.error} title={`Could not read ${node}`} onRetry={read.refresh} />
      </div>
    );
  if (!data)
    return (
      <div className="node-pane__pad">
        <Skeleton lines={8} label="Loading the node" />
      </div>
    );

  const folderish = isFolderish(data.node.kind);
  return (
    <article className="node-pane__body" aria-label={data.node.id === '/' ? rootTitle : data.node.title}>
      <NodeHeader read={data} rootTitle={rootTitle} onSelect={onSelect} onFind={(q) => void find(q)} />
      {data.node.summary && folderish ? <p className="node-pane__summary">{data.node.summary}</p> : null}
      <NodeText title={data.node.title} segments={segments} />
      {truncated && nextLine !== null ? (
        <div className="node-pane__truncated">
          <span>Truncated: the text goes on at line {nextLine}.</span>
          <button
            type="button"
            className="button button--small"
            onClick={() => void readOn.run()}
            disabled={readOn.busy}
          >
            <BookOpen size={13} aria-hidden="true" />
            Read on
          </button>
        </div>
      ) : null}
      {readOn.error ? (
        <ErrorNotice error={readOn.error} title="Could not read on" onRetry={() => void readOn.run()} />
      ) : null}
      <NodeLinks read={data} onSelect={onSelect} />
      {folderish ? null : <Backlinks tree={tree} node={data.node.id} onSelect={onSelect} />}
    </article>
  );
}

/** Before anything is chosen: how to read the tree. */
export function NodePaneHint() {
  return (
    <div className="empty empty--small">
      <h2 className="empty__title">Choose a node to read it</h2>
      <p className="empty__text">
        <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>→</kbd> opens a folder or a document's headings, <kbd>←</kbd>{' '}
        goes back up, <kbd>Enter</kbd> reads the node here. <kbd>Ctrl</kbd>/<kbd>⌘</kbd> <kbd>K</kbd> finds a
        node by its reference id or path.
      </p>
    </div>
  );
}
