import { FileText, Maximize2, Minimize2, Play, X } from 'lucide-react';
import { useState } from 'react';
import { type DossierTarget, useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { describeLocator } from '../../lib/format.ts';
import { DossierMeta } from './DossierMeta.tsx';
import { DossierOutline } from './DossierOutline.tsx';
import { DossierText } from './DossierText.tsx';
import { EntityDossier } from './EntityDossier.tsx';

export type DossierPaneProps = {
  target: DossierTarget;
  expanded: boolean;
  onToggleExpanded: () => void;
};

/** The right pane: everything about one item, its outline, and its text with the cited range. */
export function DossierPane({ target, expanded, onToggleExpanded }: DossierPaneProps) {
  const app = useApp();
  const dossier = useCall('items.dossier', target.at ? { id: target.id, at: target.at } : { id: target.id }, {
    refetchOn: ['files.changed'],
  });
  const [indexing, setIndexing] = useState(false);
  const d = dossier.data;
  const current = d;
  const item = current?.item;
  const file = current?.file ?? null;
  const fileItem = file ?? item;

  const indexFile = async () => {
    if (!fileItem) return;
    setIndexing(true);
    try {
      await call('files.index', { ids: [fileItem.id] });
      app.notify(`Queued ${fileItem.label} for indexing`, 'success');
    } catch (err) {
      app.notify(
        `Could not index ${fileItem.label}: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    } finally {
      setIndexing(false);
    }
  };

  return (
    <aside className={expanded ? 'dossier is-expanded' : 'dossier'} aria-label="Dossier">
      <header className="dossier__header">
        <div className="dossier__heading">
          <FileText size={16} aria-hidden="true" className="dossier__icon" />
          <h2 className="dossier__title" title={item?.label}>
            {item?.label ?? 'Loading…'}
          </h2>
        </div>
        <div className="dossier__actions">
          <button
            type="button"
            className="icon-button"
            onClick={onToggleExpanded}
            aria-label={expanded ? 'Narrow the dossier' : 'Widen the dossier'}
            title={expanded ? 'Narrow' : 'Widen'}
          >
            {expanded ? (
              <Minimize2 size={15} aria-hidden="true" />
            ) : (
              <Maximize2 size={15} aria-hidden="true" />
            )}
          </button>
          <button
            type="button"
            className="icon-button"
            onClick={app.closeDossier}
            aria-label="Close dossier"
            title="Close (Esc)"
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      </header>
      {dossier.error && !d ? (
        <div className="dossier__pad">
          <ErrorNotice error={dossier.error} title="Could not open this item" onRetry={dossier.refresh} />
        </div>
      ) : !current || !item ? (
        <div className="dossier__pad">
          <Skeleton lines={6} label="Loading the dossier" />
        </div>
      ) : (
        <>
          <div className="dossier__badges">
            <span className="kind-tag">{item.storageKind === 'file' ? item.kind : item.storageKind}</span>
            <span className="scope-badge" title="Scope: who can see this">
              {item.scope}
            </span>
            {item.storageKind === 'entity' ? null : fileItem?.indexed ? (
              <span className="chip chip--indexed">Indexed</span>
            ) : fileItem?.reason ? (
              <span className="chip chip--failed">Failed</span>
            ) : (
              <span className="chip chip--added">Not indexed</span>
            )}
            {item.locator ? <span className="muted">{describeLocator(item.locator)}</span> : null}
            {file && file.id !== item.id ? (
              <button
                type="button"
                className="link-button"
                onClick={() => app.openDossier(file.id, 'section')}
              >
                in {file.label}
              </button>
            ) : null}
          </div>
          <DossierMeta item={item} file={file && file.id !== item.id ? file : null} />
          {current.entity ? (
            <EntityDossier page={current.entity} entityId={item.id} onChanged={dossier.refresh} />
          ) : (
            <div className="dossier__body">
              <DossierOutline
                outline={current.outline}
                fileLabel={fileItem?.label ?? ''}
                currentId={item.storageKind === 'section' ? item.id : null}
                onOpen={(id) => app.openDossier(id, 'section')}
              />
              {current.text !== null ? (
                <DossierText
                  label={fileItem?.label ?? item.label}
                  text={current.text}
                  highlight={current.highlight}
                  scrollKey={`${target.seq}:${item.id}:${current.highlight?.start ?? -1}:${expanded}`}
                />
              ) : (
                <div className="dossier__no-text">
                  <p>{current.textNote ?? 'There is no text to show for this item.'}</p>
                  {fileItem && !fileItem.indexed ? (
                    <button
                      type="button"
                      className="button button--primary"
                      onClick={() => void indexFile()}
                      disabled={indexing}
                    >
                      <Play size={14} aria-hidden="true" />
                      {fileItem.reason ? 'Try indexing again' : 'Index this file'}
                    </button>
                  ) : null}
                </div>
              )}
            </div>
          )}
        </>
      )}
    </aside>
  );
}
