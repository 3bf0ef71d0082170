import { FileImage, Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Dossier, ItemView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { call } from '../../lib/api.ts';
import { DossierOutline } from './DossierOutline.tsx';
import { DossierText } from './DossierText.tsx';
import { PdfPageView } from './PdfPageView.tsx';
import { pdfTargetOf } from './pdf-target.ts';
import './dossier.css';

export type DossierBodyProps = {
  dossier: Dossier;
  item: ItemView;
  /** The file the item is (or belongs to). */
  fileItem: ItemView | undefined;
  /** Changes each time the dossier is opened or widened, so the cited range is scrolled to again. */
  scrollKey: string;
  /** Changes each time the dossier is opened on an item: a PDF opens on its page view again. */
  openKey: string;
  /** A mention's range inside the item's own text. */
  at?: { start: number; end: number };
};

/** A file's (or section's, or note's) outline and text; without text, why, and a way to index it. */
export function DossierBody({ dossier: current, item, fileItem, scrollKey, openKey, at }: DossierBodyProps) {
  const app = useApp();
  const [indexing, setIndexing] = useState(false);
  // A PDF's citation opens on its page ([F15] in docs/FORMATS.md); "Text" shows the text view instead.
  const [asText, setAsText] = useState(false);
  useEffect(() => {
    void openKey;
    setAsText(false);
  }, [openKey]);
  const pdf = current.text !== null ? pdfTargetOf(item, fileItem, at) : null;
  const label = fileItem?.label ?? item.label;

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
      {pdf && !asText ? (
        <PdfPageView
          itemId={item.id}
          blob={current.citation?.blob ?? null}
          label={label}
          target={pdf}
          scrollKey={scrollKey}
          onShowText={() => setAsText(true)}
        />
      ) : current.text !== null ? (
        <div className="dossier__reader">
          {pdf ? (
            <div className="dossier__reader-bar">
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => setAsText(false)}
                title={`Show page ${pdf.page} as the PDF draws it`}
              >
                <FileImage size={13} aria-hidden="true" />
                Page view
              </button>
            </div>
          ) : null}
          <DossierText
            label={label}
            text={current.text}
            highlight={current.highlight}
            scrollKey={scrollKey}
          />
        </div>
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
