/**
 * Settings → Semantic search → Language: the workspace's embedding model ([R8] in
 * docs/RETRIEVAL.md). Choosing a model that is here switches to it (model.use); one that is not
 * downloads in the background first and is used once it is here (model.download). Either way the
 * items are embedded again in the background, and search keeps working meanwhile.
 */
import type { EmbeddingModelView } from '#shared/api/types.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { call } from '../../lib/api.ts';

async function choose(m: EmbeddingModelView): Promise<void> {
  if (m.downloaded) await call('model.use', { model: m.choice });
  else await call('model.download', { model: m.choice });
}

export function EmbeddingModelChoice() {
  const { status, queue } = useStatus();
  const action = useAction(choose);
  const models = status?.embeddingModels ?? [];
  const model = status?.model;
  const pending = models.find((m) => m.modelId === model?.pending);
  const downloading = models.find((m) => m.downloading !== undefined);
  const embedding = queue.last?.phase === 'embedding' && queue.total > 0 ? queue : null;
  if (models.length === 0) return null;

  return (
    <div className="setting-row setting-row--stack">
      <fieldset className="model-choice" disabled={action.busy}>
        <legend className="setting-row__label">Language</legend>
        {models.map((m) => (
          <label key={m.choice} className="model-choice__option">
            <input
              type="radio"
              name="embedding-model"
              value={m.choice}
              checked={m.chosen}
              onChange={() => void action.run(m)}
            />
            <span>
              <span className="model-choice__name">{m.name}</span>{' '}
              <span className="setting-row__hint">
                {m.about}. {m.downloaded ? 'Downloaded.' : 'Downloads when chosen (needs the network).'}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {downloading ? (
        <div role="status" aria-label="Model download">
          <p className="setting-row__hint">
            Downloading the {downloading.name} model ({Math.round((downloading.downloading ?? 0) * 100)} %);
            it is used once it is here, and {model?.modelId ?? 'keyword search'} answers until then.
          </p>
          <ProgressBar value={downloading.downloading ?? null} label="Model download" />
        </div>
      ) : pending ? (
        <p className="setting-row__hint" role="status" aria-label="Model switch">
          Switching to the {pending.name} model; {model?.modelId} answers meanwhile.
        </p>
      ) : null}
      {embedding ? (
        <div role="status" aria-label="Embedding again">
          <p className="setting-row__hint">
            Embedding {embedding.done} of {embedding.total} items with {model?.modelId}; search keeps working
            meanwhile.
          </p>
          <ProgressBar value={embedding.done / embedding.total} label="Embedding" />
        </div>
      ) : null}
      {action.error ? (
        <ErrorNotice error={action.error} title="Could not change the embedding model" />
      ) : null}
    </div>
  );
}
