import { Download } from 'lucide-react';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { call } from '../../lib/api.ts';
import { AccessChecks } from './AccessChecks.tsx';
import { BackupsSection } from './BackupsSection.tsx';
import { ChatModelSettings } from './ChatModelSettings.tsx';
import { EmbeddingModelChoice } from './EmbeddingModelChoice.tsx';
import { ExportSection } from './ExportSection.tsx';
import { OcrLanguageSetting } from './OcrLanguageSetting.tsx';
import { SyncSettings } from './SyncSettings.tsx';
import { WatchedFolders } from './WatchedFolders.tsx';
import './settings.css';

const downloadModel = () => call('model.download');

export function SettingsScreen() {
  const app = useApp();
  const { status, info, settings, updateSettings } = useStatus();
  const download = useAction(downloadModel);
  const model = status?.model;

  const setIndexOnAdd = async (on: boolean) => {
    try {
      await updateSettings({ indexOnAdd: on });
    } catch (err) {
      app.notify(
        `Could not change the setting: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    }
  };

  return (
    <section className="screen" aria-labelledby="settings-title">
      <header className="screen__header">
        <h1 id="settings-title" className="screen__title">
          Settings
        </h1>
      </header>
      <div className="screen__body screen__body--scroll">
        <div className="settings">
          <section className="settings-section" aria-labelledby="indexing-title">
            <h2 id="indexing-title" className="settings-section__title">
              Indexing
            </h2>
            <div className="setting-row">
              <div>
                <label htmlFor="settings-index-on-add" className="setting-row__label">
                  Index on add
                </label>
                <p className="setting-row__hint">
                  Index files as soon as they are added, so they can answer right away. Off: files wait until
                  you index them.
                </p>
              </div>
              <Switch
                id="settings-index-on-add"
                label="Index on add"
                checked={settings?.indexOnAdd ?? false}
                disabled={!settings}
                onChange={(on) => void setIndexOnAdd(on)}
              />
            </div>
            <OcrLanguageSetting />
          </section>

          <WatchedFolders />

          <section className="settings-section" aria-labelledby="semantic-title">
            <h2 id="semantic-title" className="settings-section__title">
              Semantic search
            </h2>
            <div className="setting-row">
              <div>
                <span className="setting-row__label">
                  {model?.status === 'on'
                    ? 'On'
                    : model?.status === 'downloading'
                      ? `Downloading the model${model.progress !== undefined ? ` (${Math.round(model.progress * 100)} %)` : '…'}`
                      : 'Off: keyword search only'}
                </span>
                <p className="setting-row__hint">
                  {model?.status === 'off'
                    ? (model.reason ?? 'The embedding model is missing; keyword search keeps working.')
                    : `Model ${model?.modelId ?? '…'}: finds passages by meaning as well as by words.`}
                </p>
                {model?.status === 'downloading' ? (
                  <ProgressBar value={model.progress ?? null} label="Model download" />
                ) : null}
              </div>
              {model?.status === 'off' ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => void download.run()}
                  disabled={download.busy}
                >
                  <Download size={14} aria-hidden="true" />
                  Download model
                </button>
              ) : null}
            </div>
            {download.error ? (
              <ErrorNotice error={download.error} title="Could not download the model" />
            ) : null}
            <EmbeddingModelChoice />
          </section>

          <ChatModelSettings />

          <SyncSettings />

          <AccessChecks />

          <BackupsSection />
          <ExportSection />

          <section className="settings-section" aria-labelledby="workspace-title">
            <h2 id="workspace-title" className="settings-section__title">
              Workspace
            </h2>
            <dl className="meta-list meta-list--settings">
              <div>
                <dt>Local user</dt>
                <dd>{settings?.user ?? info?.user ?? '…'}</dd>
              </div>
              <div>
                <dt>Workspace</dt>
                <dd className="mono ellipsis" title={info?.workspace}>
                  {info?.workspace ?? '…'}
                </dd>
              </div>
              <div className="meta-list__wide">
                <dt>Data folder</dt>
                <dd className="mono">{settings?.dataFolder ?? info?.home ?? '…'}</dd>
              </div>
              <div>
                <dt>Version</dt>
                <dd>{info ? `${info.name} ${info.version}` : '…'}</dd>
              </div>
            </dl>
          </section>
        </div>
      </div>
    </section>
  );
}
