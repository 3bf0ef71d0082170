import * as Tabs from '@radix-ui/react-tabs';
import { BrokenLinks } from './BrokenLinks.tsx';
import { NodePane, NodePaneHint } from './NodePane.tsx';
import { TreePane } from './TreePane.tsx';
import { repoName, type TreeSource } from './tree-format.ts';
import { useTreeNodes } from './use-tree-nodes.ts';
import type { TreesTab } from './use-trees-screen.ts';

export type TreeWorkspaceProps = {
  source: TreeSource;
  selected: string | null;
  onSelect: (id: string) => void;
  tab: TreesTab;
  onTab: (tab: TreesTab) => void;
};

/**
 * A built tree: the tree pane and the node pane side by side, or the broken links. Keyed by the tree and
 * its indexed commit (TreesScreen.tsx), so a new build starts from a fresh tree; the expanded nodes
 * live here, above the tabs, and survive a look at the broken links.
 */
export function TreeWorkspace({ source, selected, onSelect, tab, onTab }: TreeWorkspaceProps) {
  const nodes = useTreeNodes(source.id);
  return (
    <Tabs.Root
      className="trees__tabs"
      value={tab}
      onValueChange={(v) => onTab(v === 'broken' ? 'broken' : 'tree')}
    >
      <Tabs.List className="trees__tablist" aria-label="Tree views">
        <Tabs.Trigger className="trees__tab" value="tree">
          Tree
        </Tabs.Trigger>
        <Tabs.Trigger className="trees__tab" value="broken">
          Broken links
          {source.counts.broken ? (
            <span className="count-badge">{source.counts.broken.toLocaleString()}</span>
          ) : null}
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="tree" className="trees__split">
        <div className="trees__tree-pane">
          <TreePane
            nodes={nodes}
            label={`Tree of ${repoName(source.root)}`}
            selectedId={selected}
            onOpen={onSelect}
          />
        </div>
        <div className="trees__node-pane">
          {selected ? (
            <NodePane
              key={selected}
              tree={source.id}
              node={selected}
              rootTitle={repoName(source.root)}
              onSelect={onSelect}
              onReveal={nodes.reveal}
            />
          ) : (
            <NodePaneHint />
          )}
        </div>
      </Tabs.Content>
      <Tabs.Content value="broken" className="trees__broken">
        <BrokenLinks tree={source.id} onSelect={onSelect} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
