import { PlugZap, Save } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useChatModelForm } from './use-chat-model-form.ts';
import './settings.css';

/**
 * The chat model: any OpenAI-compatible endpoint. Nothing is on until a base URL and a model name are
 * saved (Ollama's address is only suggested). The key is never shown back, only whether one is stored.
 */
export function ChatModelSettings() {
  const {
    config,
    data,
    baseUrl,
    setBaseUrl,
    model,
    setModel,
    key,
    setKey,
    busy,
    error,
    test,
    dirty,
    testable,
    save,
    runTest,
    clearKey,
  } = useChatModelForm();
  return (
    <section className="settings-section" aria-labelledby="chat-model-title">
      <h2 id="chat-model-title" className="settings-section__title">
        Chat model
      </h2>
      <p className="setting-row__hint" role="status" aria-label="Chat model state">
        {data?.enabled
          ? `On: ${data.model} at ${data.baseUrl}. Chat answers cite memories inline; write-back and the audit pass use it.`
          : `Off${data?.reason ? `: ${data.reason}` : ''}. Chat answers are the cited passages; write-back and the model audit wait.`}
      </p>
      <form className="form chat-model-form" onSubmit={(e) => void save(e)}>
        <label className="field">
          <span className="field__label">Base URL</span>
          <input
            className="input"
            aria-label="Base URL"
            placeholder={data?.suggestedBaseUrl ?? 'http://127.0.0.1:11434/v1'}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
          <span className="field__hint">
            Any OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp, vLLM, a hosted API).{' '}
            {data && !baseUrl ? (
              <button type="button" className="link-button" onClick={() => setBaseUrl(data.suggestedBaseUrl)}>
                Use Ollama's local address
              </button>
            ) : null}
          </span>
        </label>
        <label className="field">
          <span className="field__label">Model name</span>
          <input
            className="input"
            aria-label="Model name"
            placeholder="e.g. llama3.1:8b"
            value={model}
            onChange={(e) => setModel(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">API key (optional)</span>
          <input
            className="input"
            type="password"
            aria-label="API key"
            autoComplete="off"
            placeholder={
              data?.hasKey ? 'A key is stored; type to replace it' : 'Not needed for local servers'
            }
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <span className="field__hint">
            {data?.keyStorage === 'safeStorage'
              ? 'Kept encrypted by the system keychain, never in the workspace database.'
              : 'Kept in a file in the data folder readable only by you, never in the workspace database.'}{' '}
            {data?.hasKey ? (
              <button type="button" className="link-button" onClick={() => void clearKey()}>
                Remove the stored key
              </button>
            ) : null}
          </span>
        </label>
        <div className="form__actions form__actions--start">
          <button type="submit" className="button button--primary" disabled={busy}>
            <Save size={14} aria-hidden="true" />
            Save
          </button>
          <button
            type="button"
            className="button"
            onClick={() => void runTest()}
            disabled={busy || !testable}
            title={dirty ? 'Saves the changes, then tests the connection with them' : undefined}
          >
            <PlugZap size={14} aria-hidden="true" />
            {dirty ? 'Save and test' : 'Test connection'}
          </button>
        </div>
      </form>
      {test ? (
        <p className={test.ok ? 'notice notice--success' : 'notice notice--error'} role="status">
          {test.message}
        </p>
      ) : null}
      {error ? <ErrorNotice error={error} title="Could not save the chat model" /> : null}
      {config.error ? (
        <ErrorNotice error={config.error} title="Could not read the chat model settings" />
      ) : null}
    </section>
  );
}
