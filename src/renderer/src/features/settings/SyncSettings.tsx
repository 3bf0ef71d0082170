import { Loader2, PlugZap } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { AppError } from '#shared/errors.ts';
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

/** An invitation code is longer than this; Connect waits, and says so, until it is. */
const MIN_CODE = 8;

/**
 * A failed attempt's error names the server it was about, and goes once the address or the code is
 * changed, so it is never read as being about the next one.
 */
function ConnectForm({ onConnected }: { onConnected: () => void }) {
  const [url, setUrl] = useState('');
  const [code, setCode] = useState('');
  const [tried, setTried] = useState('');
  const connect = useAction(connectTo);
  const [syncError, setSyncError] = useState<string | null>(null);
  const shortCode = code.trim().length > 0 && code.trim().length < MIN_CODE;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSyncError(null);
    setTried(url.trim());
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
            onChange={(e) => {
              setUrl(e.target.value);
              connect.clearError();
            }}
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
            onChange={(e) => {
              setCode(e.target.value);
              connect.clearError();
            }}
            required
            minLength={MIN_CODE}
          />
          <span className="field__hint">
            {shortCode
              ? `An invitation code has at least ${MIN_CODE} characters: check that it was copied whole.`
              : 'The code an administrator of the workspace gave you.'}
          </span>
        </label>
        <div className="form__actions form__actions--start">
          <button
            type="submit"
            className="button button--primary"
            disabled={connect.busy || !url.trim() || code.trim().length < MIN_CODE}
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
      {connect.error ? (
        <ErrorNotice
          error={
            connect.error.code === 'not-found'
              ? new AppError(
                  'not-found',
                  `No Org Brain workspace server answers at ${tried}: check the address (the one the server printed when it started). ${connect.error.message}`,
                )
              : connect.error
          }
          title={`Could not connect to ${tried}`}
        />
      ) : null}
      {syncError ? (
        <p className="notice notice--error" role="status">
          Connected, but the first sync failed: {syncError}. It will be retried.
        </p>
      ) : null}
    </>
  );
}
