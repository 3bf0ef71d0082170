import { AlertTriangle, Eye, FolderPlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { WatchedFolder } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatRelative, plural } from '../../lib/format.ts';
import './settings.css';

const STATUS_LABEL: Record<WatchedFolder['status'], string> = {
  watching: 'Watching',
  missing: 'Folder missing',
  error: 'Error',
};

export function WatchedFolders() {
  const app = useApp();
  const folders = useCall('watch.list', undefined, { refetchOn: ['files.changed'], throttleMs: 2000 });
  const [toRemove, setToRemove] = useState<WatchedFolder | null>(null);

  return (
    <section className="settings-section" aria-labelledby="watched-title">
      <div className="settings-section__head">
        <h2 id="watched-title" className="settings-section__title">
          Watched folders
        </h2>
        <button type="button" className="button button--small" onClick={app.openWatchDialog}>
          <FolderPlus size={14} aria-hidden="true" />
          Watch a folder…
        </button>
      </div>
      <p className="settings-section__text">
        New files in a watched folder are added, changed files are re-indexed as new versions, removed files
        are retired. Watching survives restarts and catches up on what changed while the app was closed.
      </p>
      {folders.error ? (
        <ErrorNotice error={folders.error} title="Could not list watched folders" onRetry={folders.refresh} />
      ) : null}
      {!folders.data && !folders.error ? <Skeleton lines={2} label="Loading watched folders" /> : null}
      {folders.data?.folders.length === 0 ? <p className="muted">No folders watched yet.</p> : null}
      {folders.data && folders.data.folders.length > 0 ? (
        <ul className="folder-list" aria-label="Watched folders">
          {folders.data.folders.map((f) => (
            <li key={f.path} className="folder">
              <div className={`folder__status folder__status--${f.status}`}>
                {f.status === 'watching' ? (
                  <Eye size={14} aria-hidden="true" />
                ) : (
                  <AlertTriangle size={14} aria-hidden="true" />
                )}
              </div>
              <div className="folder__main">
                <span className="folder__path mono ellipsis" title={f.path}>
                  {f.path}
                </span>
                <span className="folder__meta">
                  {STATUS_LABEL[f.status]}
                  {f.message ? `: ${f.message}` : ''} · {plural(f.files, 'file')} · scope {f.scope} · since{' '}
                  {formatRelative(f.addedAt)}
                </span>
              </div>
              <button
                type="button"
                className="icon-button"
                aria-label={`Stop watching ${f.path}`}
                onClick={() => setToRemove(f)}
              >
                <Trash2 size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => {
          if (!open) setToRemove(null);
        }}
        title="Stop watching this folder?"
        message={`Org Brain stops following ${toRemove?.path ?? ''}. Files already added stay in the workspace.`}
        confirmLabel="Stop watching"
        destructive
        onConfirm={async () => {
          if (!toRemove) return;
          await call('watch.remove', { path: toRemove.path });
          folders.refresh();
          app.notify(`Stopped watching ${toRemove.path}`);
        }}
      />
    </section>
  );
}
