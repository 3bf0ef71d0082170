import { useEffect, useRef, useState } from 'react';
import type { ItemView } from '#shared/api/types.ts';
import { type DossierTarget, useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { describeLocator } from '../../lib/format.ts';
import { RemoveDialog, type RemoveTarget } from '../files/RemoveDialog.tsx';
import { DossierBody } from './DossierBody.tsx';
import { DossierHeader } from './DossierHeader.tsx';
import { DossierMeta } from './DossierMeta.tsx';
import { EntityDossier } from './EntityDossier.tsx';
import { ReadByOcrButton } from './ReadByOcrButton.tsx';
import './dossier.css';

export type DossierPaneProps = {
  target: DossierTarget;
  expanded: boolean;
  onToggleExpanded: () => void;
};

/**
 * A file or note can be removed from its dossier (docs/FACTS.md [K8]); a section, an entity, a retired
 * item or a connected repository's document cannot (the engine would refuse it).
 */
function removableOf(item: ItemView | undefined): RemoveTarget | null {
  if (!item || item.retiredAt !== null || item.origin.source === 'tree') return null;
  if (item.storageKind !== 'file' && item.storageKind !== 'note') return null;
  return { id: item.id, label: item.label, storageKind: item.storageKind };
}

/** A live PDF file can be read by OCR, its text layer ignored (docs/OCR.md [O9]); not a repository's document. */
function ocrableOf(item: ItemView | undefined): ItemView | null {
  if (item?.storageKind !== 'file' || item.format !== 'pdf') return null;
  return item.retiredAt === null && item.origin.source !== 'tree' ? item : null;
}

/** The right pane: everything about one item, its outline, and its text with the cited range. */
export function DossierPane({ target, expanded, onToggleExpanded }: DossierPaneProps) {
  const app = useApp();
  // Kept while the dialog is open: the item turns retired under it once removed.
  const [removing, setRemoving] = useState<RemoveTarget | null>(null);
  // Cancelled, the dialog gives the focus back to Remove… (removed, the dossier closes).
  const removeButton = useRef<HTMLButtonElement>(null);
  const wasRemoving = useRef(false);
  useEffect(() => {
    if (!removing && wasRemoving.current) removeButton.current?.focus();
    wasRemoving.current = removing !== null;
  }, [removing]);
  const dossier = useCall('items.dossier', target.at ? { id: target.id, at: target.at } : { id: target.id }, {
    refetchOn: ['files.changed'],
  });
  const d = dossier.data;
  const current = d;
  const item = current?.item;
  const file = current?.file ?? null;
  const fileItem = file ?? item;
  const removable = removableOf(item);
  const ocrable = ocrableOf(item);

  return (
    <aside className={expanded ? 'dossier is-expanded' : 'dossier'} aria-label="Dossier">
      <DossierHeader
        label={item?.label}
        expanded={expanded}
        onToggleExpanded={onToggleExpanded}
        onClose={app.closeDossier}
        onRemove={removable ? () => setRemoving(removable) : undefined}
        removeRef={removeButton}
        fileActions={ocrable ? <ReadByOcrButton file={ocrable} onIndexed={dossier.refresh} /> : null}
      />
      {removing ? (
        <RemoveDialog
          targets={[removing]}
          onClose={(outcome) => {
            setRemoving(null);
            if (outcome?.done.some((d) => d.answer.removed)) app.closeDossier();
          }}
        />
      ) : null}
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
            <DossierBody
              dossier={current}
              item={item}
              fileItem={fileItem}
              scrollKey={`${target.seq}:${item.id}:${current.highlight?.start ?? -1}:${expanded}`}
              openKey={`${target.seq}:${item.id}`}
              at={target.at}
            />
          )}
        </>
      )}
    </aside>
  );
}
