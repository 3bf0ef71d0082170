/**
 * The Trees screen's state: the connected repositories (trees.list, refetched on `trees.changed`),
 * which one is shown, which node is open, which view (the tree, its broken links or what changed since a commit), and the actions
 * on a repository (connect, rebuild, disconnect). A node opened from the palette (app.treeTarget)
 * takes over the repository and the open node.
 */
import { useCallback, useEffect, useState } from 'react';
import { useApp } from '../../app/app-context.ts';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { describeCounts, repoName, shortCommit, type TreeSource } from './tree-format.ts';

export type TreesTab = 'tree' | 'broken' | 'changes';

export function useTreesScreen() {
  const app = useApp();
  const { notify, treeTarget } = app;
  const list = useCall('trees.list', {}, { refetchOn: ['trees.changed'] });
  const trees = list.data?.trees ?? [];
  const [chosen, setChosen] = useState<string | null>(treeTarget?.tree ?? null);
  const [selected, setSelected] = useState<string | null>(treeTarget?.node ?? null);
  const [tab, setTab] = useState<TreesTab>('tree');
  const source = trees.find((t) => t.id === chosen) ?? trees[0] ?? null;

  useEffect(() => {
    if (!treeTarget) return;
    setChosen(treeTarget.tree);
    setSelected(treeTarget.node);
    setTab('tree');
  }, [treeTarget]);

  const chooseTree = (id: string) => {
    setChosen(id);
    setSelected(null);
    setTab('tree');
  };
  const select = useCallback((id: string) => {
    setSelected(id);
    setTab('tree');
  }, []);

  /** Puts a repository's new state (an operation's answer) in the list at once, before the refetch. */
  const upsert = (next: TreeSource) => {
    const known = trees.some((t) => t.id === next.id);
    list.setData({ trees: known ? trees.map((t) => (t.id === next.id ? next : t)) : [...trees, next] });
  };

  const report = (s: TreeSource, done: string) => {
    if (s.state === 'failed')
      notify(`${done} ${repoName(s.root)}, but its build failed: ${s.error ?? 'no reason given'}`, 'error');
    else if (s.state === 'ready')
      notify(
        `${done} ${repoName(s.root)}: ${describeCounts(s.counts)} at ${shortCommit(s.indexedCommit)}`,
        'success',
      );
    else notify(`${done} ${repoName(s.root)} (${s.state})`);
  };

  const connected = (s: TreeSource) => {
    upsert(s);
    chooseTree(s.id);
    report(s, 'Connected');
    list.refresh();
  };

  const rebuild = useAction(async (tree: string) => {
    const s = await call('trees.rebuild', { tree });
    upsert(s);
    report(s, 'Rebuilt');
  });

  /** Throws on failure, so the confirmation dialog can stay open with the reason. */
  const disconnect = async (s: TreeSource) => {
    await call('trees.disconnect', { tree: s.id });
    list.setData({ trees: trees.filter((t) => t.id !== s.id) });
    setSelected(null);
    notify(`Disconnected ${repoName(s.root)}: its documents stay files of the workspace`, 'success');
    list.refresh();
  };

  return { list, trees, source, chooseTree, selected, select, tab, setTab, connected, rebuild, disconnect };
}
