/**
 * "Read by OCR" on a PDF's dossier (docs/OCR.md [O9]): for a scan whose text comes out garbled (a
 * text layer of look-alike letters), the file is read by OCR from then on, every page from its
 * scan, the text layer ignored; "Use text layer" turns it off. Either asks files.index with `ocr`
 * and stays busy, with the page being read, until the file is indexed again.
 */
import { FileType, Loader2, ScanText } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import type { ItemView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { useEvent } from '../../hooks/useEvent.ts';
import { call } from '../../lib/api.ts';

export type ReadByOcrButtonProps = {
  /** A PDF file. */
  file: ItemView;
  /** The file was indexed again (or failed): the dossier reads it anew. */
  onIndexed: () => void;
};

const EXPLAIN_ON =
  "Read every page by OCR from its scan, ignoring the text layer: for scans whose text comes out garbled. It reads in the OCR languages of Settings → Indexing (choose the document's language there first). Kept for later versions of the file.";
const EXPLAIN_OFF = 'Read by OCR now, text layer ignored. Use the text layer again instead.';

type Busy = { page?: number; pages?: number } | null;

export function ReadByOcrButton({ file, onIndexed }: ReadByOcrButtonProps) {
  const app = useApp();
  const on = file.readByOcr === true;
  const [busy, setBusy] = useState<Busy>(null);
  const explainId = useId();
  // Another file's dossier: whatever this one was waiting for is not this file's.
  useEffect(() => {
    void file.id;
    setBusy(null);
  }, [file.id]);

  useEvent('index.progress', (e: IndexProgressEvent) => {
    if (!busy || e.fileId !== file.id) return;
    if (e.phase === 'indexing') setBusy(e.pages ? { page: e.page, pages: e.pages } : {});
    if (e.phase === 'indexed' || e.phase === 'failed') {
      setBusy(null);
      if (e.phase === 'failed')
        app.notify(`Could not index ${file.label}: ${e.reason ?? 'it failed'}`, 'error');
      onIndexed();
    }
  });

  const toggle = async () => {
    const ocr = !on;
    setBusy({});
    try {
      const answer = await call('files.index', { ids: [file.id], ocr });
      app.notify(ocr ? `Reading ${file.label} by OCR` : `Reading ${file.label} by its text layer`, 'success');
      // Indexed before the answer (a process that does not queue): nothing more to wait for.
      if (answer.indexed || answer.failed) {
        setBusy(null);
        onIndexed();
      }
    } catch (err) {
      setBusy(null);
      app.notify(
        `Could not change how ${file.label} is read: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    }
  };

  const progress = busy?.pages ? ` p. ${busy.page}/${busy.pages}` : '';
  return (
    <>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => void toggle()}
        disabled={busy !== null}
        aria-busy={busy !== null}
        aria-describedby={explainId}
        title={on ? EXPLAIN_OFF : EXPLAIN_ON}
      >
        {busy ? (
          <Loader2 size={13} className="spin" aria-hidden="true" />
        ) : on ? (
          <FileType size={13} aria-hidden="true" />
        ) : (
          <ScanText size={13} aria-hidden="true" />
        )}
        {busy ? `Reading…${progress}` : on ? 'Use text layer' : 'Read by OCR'}
      </button>
      <span id={explainId} className="visually-hidden">
        {on ? EXPLAIN_OFF : EXPLAIN_ON}
      </span>
    </>
  );
}
