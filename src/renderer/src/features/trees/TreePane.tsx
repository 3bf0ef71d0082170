import { useEffect } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { TreeRow } from './TreeRow.tsx';
import { nodeKey } from './tree-rows.ts';
import { useTreeKeys } from './use-tree-keys.ts';
import type { TreeNodes } from './use-tree-nodes.ts';

export type TreePaneProps = {
  nodes: TreeNodes;
  label: string;
  selectedId: string | null;
  onOpen: (id: string) => void;
};

/** The tree a level at a time: folders first, as the engine orders them; children load on expand. */
export function TreePane({ nodes, label, selectedId, onOpen }: TreePaneProps) {
  const keys = useTreeKeys(nodes, onOpen);
  const { setCursor } = keys;
  const { root } = nodes;

  // A node opened from elsewhere (a link, a backlink, the palette) takes the cursor.
  useEffect(() => {
    if (selectedId) setCursor(nodeKey(selectedId));
  }, [selectedId, setCursor]);

  if (!root || (root.loading && root.nodes.length === 0))
    return <Skeleton lines={8} label="Loading the tree" />;
  if (root.error && root.nodes.length === 0)
    return (
      <ErrorNotice error={root.error} title="Could not load the tree" onRetry={() => nodes.retry('/')} />
    );
  if (root.nodes.length === 0)
    return (
      <p className="trees__note">This tree is empty: the repository has no Markdown documents to index.</p>
    );

  return (
    <div className="tree" role="tree" aria-label={label} onKeyDown={keys.onKeyDown}>
      {nodes.rows.map((row) => {
        if (row.type === 'node')
          return (
            <TreeRow
              key={row.key}
              node={row.node}
              depth={row.depth}
              posinset={row.posinset}
              setsize={row.setsize}
              expanded={nodes.expanded.has(row.node.id)}
              selected={row.node.id === selectedId}
              isCursor={row.key === keys.focusKey}
              rowRef={keys.register(row.key)}
              onToggle={() => nodes.toggle(row.node.id)}
              onOpen={() => {
                setCursor(row.key);
                onOpen(row.node.id);
              }}
              onFocus={() => setCursor(row.key)}
            />
          );
        const indent = { paddingLeft: `${28 + (row.depth - 1) * 16}px` };
        if (row.type === 'more')
          return (
            <div
              key={row.key}
              ref={keys.register(row.key)}
              role="treeitem"
              aria-level={row.depth}
              aria-selected={false}
              tabIndex={row.key === keys.focusKey ? 0 : -1}
              className="tree-row tree-row--more"
              style={indent}
              onClick={() => nodes.loadMore(row.parent)}
              onKeyDown={() => {}}
              onFocus={(e) => e.target === e.currentTarget && setCursor(row.key)}
            >
              {row.loading ? 'Loading…' : `Show ${row.remaining.toLocaleString()} more`}
            </div>
          );
        if (row.type === 'loading')
          return (
            <div key={row.key} role="none" className="tree-row tree-row--status" style={indent}>
              <span className="skeleton__line skeleton__line--inline" aria-label="Loading" role="status" />
            </div>
          );
        return (
          <div key={row.key} role="none" className="tree-row tree-row--status" style={indent}>
            <span className="tree-row__error">Could not load: {row.error.message}</span>
            <button type="button" className="link-button" onClick={() => nodes.retry(row.parent)}>
              Try again
            </button>
          </div>
        );
      })}
    </div>
  );
}
