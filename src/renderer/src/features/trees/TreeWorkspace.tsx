import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { BrokenLinks } from './BrokenLinks.tsx';
import { NodePane, NodePaneHint } from './NodePane.tsx';
import { type LastChange, TreeChanges } from './TreeChanges.tsx';
import { TreePane } from './TreePane.tsx';
import { changesUnavailable, repoName, type TreeSource } from './tree-format.ts';
import type { TreeRowItem } from './tree-rows.ts';
import { useTreeNodes } from './use-tree-nodes.ts';
import type { TreesTab } from './use-trees-screen.ts';

export type TreeWorkspaceProps = {
  source: TreeSource;
  selected: string | null;
  onSelect: (id: string) => void;
  tab: TreesTab;
  onTab: (tab: TreesTab) => void;
};

/** The selected node's last change, as the tree pane loaded it, when it is older than the indexed commit. */
function lastChangeOf(
  rows: TreeRowItem[],
  selected: string | null,
  indexed: string | null,
): LastChange | null {
  const row = rows.find((r) => r.type === 'node' && r.node.id === selected);
  const node = row?.type === 'node' ? row.node : null;
  if (!node?.changed || node.changed.commit === indexed) return null;
  return { kind: node.kind, commit: node.changed.commit, subject: node.changed.subject };
}

/**
 * A built tree: the tree pane and the node pane side by side, the broken links, or what changed since
 * a commit. Keyed by the tree and its indexed commit (TreesScreen.tsx), so a new build starts from a
 * fresh tree; the expanded nodes and the commit asked about live here, above the tabs, and survive a
 * look at another view.
 */
export function TreeWorkspace({ source, selected, onSelect, tab, onTab }: TreeWorkspaceProps) {
  const nodes = useTreeNodes(source.id);
  const [since, setSince] = useState<string | null>(null);
  const unavailable = changesUnavailable(source);
  return (
    <Tabs.Root
      className="trees__tabs"
      value={tab}
      onValueChange={(v) => onTab(v === 'broken' || v === 'changes' ? v : 'tree')}
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
        <Tabs.Trigger
          className="trees__tab"
          value="changes"
          disabled={unavailable !== null}
          title={unavailable ?? undefined}
        >
          What changed…
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
      {unavailable ? null : (
        <Tabs.Content value="changes" className="trees__changes">
          <TreeChanges
            tree={source.id}
            indexedCommit={source.indexedCommit}
            since={since}
            onSince={setSince}
            lastChange={lastChangeOf(nodes.rows, selected, source.indexedCommit)}
            onSelect={onSelect}
          />
        </Tabs.Content>
      )}
    </Tabs.Root>
  );
}
