import { Loader2, PlugZap } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { SyncConnected } from './SyncConnected.tsx';
import './settings.css';

const connectTo = (url: string, code: string) => call('sync.connect', { url, code });

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
        <SyncConnected sync={sync} onChanged={status.refresh} />
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
