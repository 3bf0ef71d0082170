import { Play } from 'lucide-react';
import { useState } from 'react';
import type { Dossier, ItemView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { call } from '../../lib/api.ts';
import { DossierOutline } from './DossierOutline.tsx';
import { DossierText } from './DossierText.tsx';
import './dossier.css';

export type DossierBodyProps = {
  dossier: Dossier;
  item: ItemView;
  /** The file the item is (or belongs to). */
  fileItem: ItemView | undefined;
  /** Changes each time the dossier is opened or widened, so the cited range is scrolled to again. */
  scrollKey: string;
};

/** A file's (or section's, or note's) outline and text; without text, why, and a way to index it. */
export function DossierBody({ dossier: current, item, fileItem, scrollKey }: DossierBodyProps) {
  const app = useApp();
  const [indexing, setIndexing] = useState(false);

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
          scrollKey={scrollKey}
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
  );
}
