/**
 * Settings → Backups ([N15], [N18] in docs/PACKAGING.md): the database's backups (one a day while
 * the app runs, kept 7 days), "Back up now", and per backup "Restore…": a confirmation that says
 * what is lost and what is kept (Cancel has the focus), then the engine restores in place and the
 * window loads again. The offline command stays in the dialog for when the app cannot do it.
 */
import { Archive, Copy, History } from 'lucide-react';
import { useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import './settings.css';

type Backup = Outputs['backups.list']['backups'][number];

const backUpNow = () => call('backups.create');
const restoreBackup = (name: string) => call('backups.restore', { name });

export function BackupsSection() {
  const list = useCall('backups.list', undefined);
  const create = useAction(backUpNow);
  const restore = useAction(restoreBackup);
  const [toRestore, setToRestore] = useState<Backup | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  const takeOne = async () => {
    if (await create.run()) list.refresh();
  };

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="settings-section" aria-labelledby="backups-title">
      <div className="settings-section__head">
        <h2 id="backups-title" className="settings-section__title">
          Backups
        </h2>
        <button
          type="button"
          className="button button--small"
          onClick={() => void takeOne()}
          disabled={create.busy}
          aria-busy={create.busy}
        >
          <Archive size={14} aria-hidden="true" />
          {create.busy ? 'Backing up…' : 'Back up now'}
        </button>
      </div>
      <p className="settings-section__text">
        A copy of the workspace database is taken once a day while the app runs and kept for{' '}
        {list.data?.keepDays ?? 7} days (the newest always), in {list.data?.folder ?? 'the data folder'}.
      </p>
      {create.error ? <ErrorNotice error={create.error} title="Could not back up" /> : null}
      {list.error ? (
        <ErrorNotice error={list.error} title="Could not list the backups" onRetry={list.refresh} />
      ) : null}
      {!list.data && !list.error ? <Skeleton lines={2} label="Loading backups" /> : null}
      {list.data?.backups.length === 0 ? <p className="muted">No backups yet.</p> : null}
      {list.data && list.data.backups.length > 0 ? (
        <ul className="folder-list" aria-label="Backups">
          {list.data.backups.map((b) => (
            <li key={b.name} className="folder">
              <div className="folder__main">
                <span className="folder__path">{formatDateTime(b.takenAt)}</span>
                <span className="folder__meta mono ellipsis" title={b.name}>
                  {formatBytes(b.size)} · {b.name}
                </span>
              </div>
              <button
                type="button"
                className="button button--small"
                aria-label={`Restore the backup of ${formatDateTime(b.takenAt)}`}
                onClick={() => {
                  setCopied(null);
                  setToRestore(b);
                }}
              >
                <History size={14} aria-hidden="true" />
                Restore…
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog
        open={toRestore !== null}
        onOpenChange={(open) => {
          if (!open && !restore.busy) {
            setToRestore(null);
            restore.clearError();
          }
        }}
        title="Restore this backup?"
        description={`The workspace goes back to how it was on ${formatDateTime(toRestore?.takenAt)}: what was added or changed since is no longer in it. The current state is backed up first, and the database it replaces is kept beside it.`}
        size="small"
        role="alertdialog"
        footer={
          <>
            <button
              type="button"
              className="button"
              onClick={() => setToRestore(null)}
              disabled={restore.busy}
              data-autofocus
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                if (toRestore) void restore.run(toRestore.name);
              }}
              disabled={restore.busy}
              aria-busy={restore.busy}
            >
              <History size={14} aria-hidden="true" />
              {restore.busy ? 'Restoring…' : 'Restore'}
            </button>
          </>
        }
      >
        <p>
          Org Brain closes the workspace, puts the backup in its place and opens it again; the window then
          reloads.
        </p>
        {restore.error ? <ErrorNotice error={restore.error} title="Could not restore" /> : null}
        <details>
          <summary>Restore from a terminal instead</summary>
          <p>
            Quit Org Brain (and any <code>brain serve</code>), then run:
          </p>
          <div className="setting-row">
            <input
              className="input mono"
              readOnly
              aria-label="Restore command"
              value={toRestore?.restoreCommand ?? ''}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button
              type="button"
              className="button button--small"
              onClick={() => void copy(toRestore?.restoreCommand ?? '')}
            >
              <Copy size={14} aria-hidden="true" />
              Copy
            </button>
          </div>
          {copied === 'yes' ? <p className="muted">Copied.</p> : null}
          {copied === 'failed' ? (
            <p className="setting-row__error" role="alert">
              Could not copy: select the command and copy it.
            </p>
          ) : null}
        </details>
      </Dialog>
    </section>
  );
}
