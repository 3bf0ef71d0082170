import { LogOut, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { SyncStatusView } from '#shared/api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative, plural } from '../../lib/format.ts';
import { SyncMembers } from './SyncMembers.tsx';
import './settings.css';

const syncNow = () => call('sync.now', {});
const leaveServer = () => call('sync.leave', {});

/** Connected to a workspace server: its state, Sync now, the members and teams, and Leave (asked first). */
export function SyncConnected({ sync, onChanged }: { sync: SyncStatusView; onChanged: () => void }) {
  const members = useCall('sync.members', undefined, { refetchOn: ['status.changed'], throttleMs: 5000 });
  const now = useAction(syncNow);
  const [confirmLeave, setConfirmLeave] = useState(false);

  const runNow = async () => {
    await now.run();
    onChanged();
    members.refresh();
  };

  return (
    <>
      <dl className="meta-list meta-list--settings" aria-label="Workspace server state">
        <div className="meta-list__wide">
          <dt>Server</dt>
          <dd className="mono ellipsis" title={sync.server ?? undefined}>
            {sync.server}
          </dd>
        </div>
        <div>
          <dt>User</dt>
          <dd>
            {sync.user} ({sync.isAdmin ? 'admin' : 'member'})
          </dd>
        </div>
        <div>
          <dt>Workspace</dt>
          <dd>{sync.workspace ?? '…'}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            {sync.state === 'online' ? 'Online' : sync.state === 'offline' ? 'Offline' : 'Not tried yet'}
          </dd>
        </div>
        <div>
          <dt>Last sync</dt>
          <dd title={sync.lastSync ? formatDateTime(sync.lastSync) : undefined}>
            {sync.lastSync ? formatRelative(sync.lastSync) : 'Never'}
          </dd>
        </div>
        <div>
          <dt>Pending</dt>
          <dd>{plural(sync.pending, 'operation')}</dd>
        </div>
        {sync.refused > 0 ? (
          <div>
            <dt>Refused by the server</dt>
            <dd>{plural(sync.refused, 'change')}</dd>
          </div>
        ) : null}
      </dl>
      {sync.lastError ? (
        <p className="notice notice--error" role="status">
          Last error: {sync.lastError}
        </p>
      ) : null}
      <div className="form__actions form__actions--start">
        <button type="button" className="button" onClick={() => void runNow()} disabled={now.busy}>
          <RefreshCw size={14} aria-hidden="true" className={now.busy ? 'spin' : undefined} />
          {now.busy ? 'Syncing…' : 'Sync now'}
        </button>
        <button type="button" className="button button--danger" onClick={() => setConfirmLeave(true)}>
          <LogOut size={14} aria-hidden="true" />
          Leave
        </button>
      </div>
      {now.error ? <ErrorNotice error={now.error} title="Could not sync" /> : null}

      <SyncMembers members={members} />

      <ConfirmDialog
        open={confirmLeave}
        onOpenChange={setConfirmLeave}
        title="Leave the workspace server?"
        message={
          sync.pending > 0
            ? `${plural(sync.pending, 'unsent change')} will be dropped. This copy stays on this computer, local only.`
            : 'Every change has been sent. This copy stays on this computer, local only.'
        }
        confirmLabel="Leave"
        destructive
        onConfirm={async () => {
          await leaveServer();
          onChanged();
        }}
      />
    </>
  );
}
