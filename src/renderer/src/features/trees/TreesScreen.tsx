import { Plus } from 'lucide-react';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { ConnectDialog } from './ConnectDialog.tsx';
import { EmptyTrees } from './EmptyTrees.tsx';
import { TreeNotReady } from './TreeNotReady.tsx';
import { TreeStatusLine } from './TreeStatusLine.tsx';
import { TreeWorkspace } from './TreeWorkspace.tsx';
import { isReadable, repoName, type TreeSource } from './tree-format.ts';
import { useTreesScreen } from './use-trees-screen.ts';
import './trees.css';

/** Repositories connected to the workspace, read top-down: the tree, a node's text and links, broken links. */
export function TreesScreen() {
  const screen = useTreesScreen();
  const { list, trees, source } = screen;
  const [connecting, setConnecting] = useState(false);

  return (
    <section className="screen" aria-labelledby="trees-title">
      <header className="screen__header">
        <h1 id="trees-title" className="screen__title">
          Trees
        </h1>
        {source ? (
          <span className="screen__meta mono" title={source.root}>
            {source.root}
            {source.branch ? ` · ${source.branch}` : source.isGit ? '' : ' · plain folder'}
          </span>
        ) : null}
        {source ? (
          <div className="trees__header-actions">
            {trees.length > 1 ? (
              <TreePicker trees={trees} value={source.id} onChange={screen.chooseTree} />
            ) : null}
            <button type="button" className="button button--small" onClick={() => setConnecting(true)}>
              <Plus size={13} aria-hidden="true" />
              Connect…
            </button>
          </div>
        ) : null}
      </header>
      {list.error ? (
        <ErrorNotice
          error={list.error}
          title="Could not load the connected repositories"
          onRetry={list.refresh}
        />
      ) : null}
      <div className="screen__body">
        {!list.data ? (
          list.error ? null : (
            <div className="trees__pad">
              <Skeleton lines={8} label="Loading trees" />
            </div>
          )
        ) : !source ? (
          <EmptyTrees onConnect={() => setConnecting(true)} />
        ) : (
          <>
            <TreeStatusLine
              source={source}
              rebuilding={screen.rebuild.busy}
              rebuildError={screen.rebuild.error}
              onRebuild={() => void screen.rebuild.run(source.id)}
              onDisconnect={() => screen.disconnect(source)}
            />
            {isReadable(source) ? (
              <TreeWorkspace
                key={`${source.id}:${source.indexedCommit}`}
                source={source}
                selected={screen.selected}
                onSelect={screen.select}
                tab={screen.tab}
                onTab={screen.setTab}
              />
            ) : (
              <TreeNotReady
                source={source}
                rebuilding={screen.rebuild.busy}
                onRebuild={() => void screen.rebuild.run(source.id)}
              />
            )}
          </>
        )}
      </div>
      <ConnectDialog open={connecting} onOpenChange={setConnecting} onConnected={screen.connected} />
    </section>
  );
}

function TreePicker({
  trees,
  value,
  onChange,
}: {
  trees: TreeSource[];
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <label className="trees__picker">
      <span className="visually-hidden">Repository</span>
      <select className="input trees__select" value={value} onChange={(e) => onChange(e.target.value)}>
        {trees.map((t) => (
          <option key={t.id} value={t.id}>
            {repoName(t.root)}
            {t.branch ? ` (${t.branch})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
