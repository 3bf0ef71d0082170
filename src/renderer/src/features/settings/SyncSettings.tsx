import { Loader2, LogOut, PlugZap, RefreshCw } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { SyncStatusView } from '#shared/api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative, plural } from '../../lib/format.ts';

const connectTo = (url: string, code: string) => call('sync.connect', { url, code });
const syncNow = () => call('sync.now', {});
const leaveServer = () => call('sync.leave', {});

/** The workspace server: connect with an invitation, see members and teams, sync now, leave. */
export function SyncSettings() {
  const status = useCall('sync.status', undefined, { refetchOn: ['status.changed'] });
  const sync = status.data;

  return (
    <section className="settings-section" aria-labelledby="sync-title">
      <h2 id="sync-title" className="settings-section__title">
        Workspace server
      </h2>
      {status.error ? <ErrorNotice error={status.error} title="Could not read the sync state" /> : null}
      {!sync ? (
        status.error ? null : (
          <p className="muted">…</p>
        )
      ) : sync.connected ? (
        <Connected sync={sync} onChanged={status.refresh} />
      ) : (
        <ConnectForm onConnected={status.refresh} />
      )}
    </section>
  );
}

function ConnectForm({ onConnected }: { onConnected: () => void }) {
  const [url, setUrl] = useState('');
  const [code, setCode] = useState('');
  const connect = useAction(connectTo);
  const [syncError, setSyncError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSyncError(null);
    const result = await connect.run(url.trim(), code.trim());
    if (result) {
      setSyncError(result.syncError);
      onConnected();
    }
  };

  return (
    <>
      <p className="settings-section__text">
        Local only. Connect to your team's server with an invitation to share this workspace; your files and
        notes so far are sent once connected.
      </p>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field__label">Server URL</span>
          <input
            className="input"
            type="url"
            aria-label="Server URL"
            placeholder="https://brain.example.org"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span className="field__label">Invitation code</span>
          <input
            className="input mono"
            aria-label="Invitation code"
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            minLength={8}
          />
          <span className="field__hint">The code an administrator of the workspace gave you.</span>
        </label>
        <div className="form__actions form__actions--start">
          <button
            type="submit"
            className="button button--primary"
            disabled={connect.busy || !url.trim() || code.trim().length < 8}
          >
            {connect.busy ? (
              <Loader2 size={14} className="spin" aria-hidden="true" />
            ) : (
              <PlugZap size={14} aria-hidden="true" />
            )}
            {connect.busy ? 'Connecting…' : 'Connect'}
          </button>
        </div>
      </form>
      {connect.error ? <ErrorNotice error={connect.error} title="Could not connect" /> : null}
      {syncError ? (
        <p className="notice notice--error" role="status">
          Connected, but the first sync failed: {syncError}. It will be retried.
        </p>
      ) : null}
    </>
  );
}

function Connected({ sync, onChanged }: { sync: SyncStatusView; onChanged: () => void }) {
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

      <h3 className="setting-row__label">Members and teams</h3>
      {members.error ? <ErrorNotice error={members.error} title="Could not list the members" /> : null}
      {members.data ? (
        <>
          <ul className="folder-list" aria-label="Members">
            {members.data.members.map((m) => (
              <li key={m.user} className="folder">
                <div className="folder__main">
                  <span className="folder__path ellipsis">
                    {m.user}
                    {m.isAdmin ? ' (admin)' : ''}
                  </span>
                  <span className="folder__meta">
                    {m.teams.length ? `Teams: ${m.teams.join(', ')}` : 'No team'} ·{' '}
                    {plural(m.devices, 'device')}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          {members.data.teams.length ? (
            <ul className="folder-list" aria-label="Teams">
              {members.data.teams.map((t) => (
                <li key={t.id} className="folder">
                  <div className="folder__main">
                    <span className="folder__path ellipsis">{t.id}</span>
                    <span className="folder__meta">
                      {t.members.length ? t.members.join(', ') : 'No members'}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No teams yet.</p>
          )}
        </>
      ) : members.error ? null : (
        <p className="muted">…</p>
      )}

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
