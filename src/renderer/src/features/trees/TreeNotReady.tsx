import { Loader2, RefreshCw } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { TreeSource } from './tree-format.ts';

export type TreeNotReadyProps = { source: TreeSource; rebuilding: boolean; onRebuild: () => void };

/** A repository with no tree to read yet (never built, building, its first build failed, or turned off). */
export function TreeNotReady({ source, rebuilding, onRebuild }: TreeNotReadyProps) {
  const rebuild = (
    <button type="button" className="button" onClick={onRebuild} disabled={rebuilding}>
      <RefreshCw size={14} aria-hidden="true" className={rebuilding ? 'spin' : undefined} />
      {rebuilding ? 'Rebuilding…' : 'Rebuild'}
    </button>
  );
  if (source.state === 'failed')
    return (
      <div className="trees__pad">
        <ErrorNotice
          error={source.error ?? 'The build stopped without a reason.'}
          title={`The tree of ${source.root} could not be built`}
          action={rebuild}
        />
      </div>
    );
  const busy = source.state === 'queued' || source.state === 'indexing';
  return (
    <div className="empty empty--small">
      {busy ? <Loader2 size={22} className="spin" aria-hidden="true" /> : null}
      <h2 className="empty__title">
        {source.state === 'off'
          ? 'This tree is turned off'
          : busy
            ? 'The tree is being built'
            : 'The tree is not built yet'}
      </h2>
      <p className="empty__text">
        {source.remote && source.waitingFor
          ? `Shared by ${source.createdBy}: waiting for ${source.waitingFor} of its documents from the workspace server.`
          : busy
            ? 'It shows here as soon as the build is done.'
            : `Build it from ${source.branch ? `the tip of ${source.branch}` : 'the folder as it is now'} to read it.`}
      </p>
      {busy ? null : <div className="empty__actions">{rebuild}</div>}
    </div>
  );
}
