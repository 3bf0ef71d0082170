import { Loader2, RefreshCw, Unplug } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import {
  describeCounts,
  repoName,
  STATE_LABELS,
  shortCommit,
  type TreeSource,
  type TreeState,
} from './tree-format.ts';

const CHIP: Record<TreeState, string> = {
  'not-built': 'chip chip--added',
  queued: 'chip chip--queued',
  indexing: 'chip chip--indexing',
  ready: 'chip chip--indexed',
  failed: 'chip chip--failed',
  off: 'chip',
};

function TreeStateChip({ state }: { state: TreeState }) {
  return (
    <span className={CHIP[state]} title={`State: ${STATE_LABELS[state]}`}>
      {state === 'indexing' ? <Loader2 size={11} className="spin" aria-hidden="true" /> : null}
      {STATE_LABELS[state]}
    </span>
  );
}

/** The files the tree leaves out and why, as the counts' tooltip (the first 20 the engine names). */
function leftOutTitle(source: TreeSource): string | undefined {
  if (source.leftOut.length === 0) return undefined;
  const more = source.counts.skipped - source.leftOut.length;
  return [
    'Left out of the tree:',
    ...source.leftOut.map((f) => `${f.path} (${f.reason})`),
    ...(more > 0 ? [`and ${more.toLocaleString()} more`] : []),
  ].join('\n');
}

export type TreeStatusLineProps = {
  source: TreeSource;
  rebuilding: boolean;
  rebuildError: unknown;
  onRebuild: () => void;
  onDisconnect: () => Promise<void>;
};

/** A repository's state: built or not, the indexed commit, what the build found; Rebuild and Disconnect. */
export function TreeStatusLine({
  source,
  rebuilding,
  rebuildError,
  onRebuild,
  onDisconnect,
}: TreeStatusLineProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <div className="trees__status">
        <TreeStateChip state={source.state} />
        {source.indexedCommit ? (
          <span className="mono" title={`Indexed commit ${source.indexedCommit}`}>
            {shortCommit(source.indexedCommit)}
          </span>
        ) : null}
        {source.indexedCommit ? (
          <span className="muted" title={leftOutTitle(source)}>
            {describeCounts(source.counts)}
          </span>
        ) : null}
        <span className="scope-badge" title="Scope: who can read this tree">
          {source.scope}
        </span>
        {source.remote ? (
          <span className="muted" title="Connected on their replica; built here from the documents it shared">
            Shared by {source.createdBy}
          </span>
        ) : null}
        <span className="toolbar__spacer" />
        <button type="button" className="button button--small" onClick={onRebuild} disabled={rebuilding}>
          <RefreshCw size={13} aria-hidden="true" className={rebuilding ? 'spin' : undefined} />
          {rebuilding ? 'Rebuilding…' : 'Rebuild'}
        </button>
        {source.remote ? null : (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => setConfirming(true)}
          >
            <Unplug size={13} aria-hidden="true" />
            Disconnect
          </button>
        )}
      </div>
      {source.remote && source.waitingFor ? (
        <p className="notice trees__notice" role="status">
          Waiting for {source.waitingFor} document{source.waitingFor === 1 ? '' : 's'} from the workspace
          server; the tree is built again once they arrive.
        </p>
      ) : null}
      {source.state === 'failed' && source.indexedCommit ? (
        <p className="notice notice--error trees__notice" role="status">
          The last build failed{source.attemptedCommit ? ` at ${shortCommit(source.attemptedCommit)}` : ''}:{' '}
          {source.error ?? 'no reason given'}. The tree of {shortCommit(source.indexedCommit)} is shown.
        </p>
      ) : null}
      {rebuildError ? (
        <div className="trees__notice">
          <ErrorNotice
            error={rebuildError}
            title={`Could not rebuild ${repoName(source.root)}`}
            onRetry={onRebuild}
          />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Disconnect ${repoName(source.root)}?`}
        message={`The tree of ${source.root} goes. Its documents stay files of the workspace; connecting it again builds the tree anew.`}
        confirmLabel="Disconnect"
        destructive
        onConfirm={onDisconnect}
      />
    </>
  );
}
