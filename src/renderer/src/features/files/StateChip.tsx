import { AlertTriangle, Check, Circle, Clock, Loader2 } from 'lucide-react';
import type { FileState } from '#shared/api/types.ts';
import { Tip } from '../../components/Tip.tsx';
import type { PageProgress, Phase } from './useFileRows.ts';

const HINT: Record<FileState, string> = {
  added: 'Added: stored, not answerable until indexed',
  indexing: 'Indexing: extracting text and sections',
  indexed: 'Indexed: answers questions',
  failed: 'Failed',
};

/** added · queued · indexing · indexed · failed (with its reason on hover and focus). */
export function StateChip({
  state,
  phase,
  progress,
  reason,
}: {
  state: FileState;
  phase?: Phase;
  /** The page a PDF being indexed is on (docs/OCR.md [O4]). */
  progress?: PageProgress | undefined;
  reason: string | null;
}) {
  if (state === 'failed') {
    return (
      <Tip content={reason ? `Failed: ${reason}` : 'Failed'}>
        <button
          type="button"
          className="chip chip--failed"
          aria-label={`Failed: ${reason ?? 'no reason given'}`}
        >
          <AlertTriangle size={12} aria-hidden="true" />
          Failed
        </button>
      </Tip>
    );
  }
  if (phase === 'queued' && state !== 'indexed') {
    return (
      <span className="chip chip--queued" title="Waiting in the indexing queue">
        <Clock size={12} aria-hidden="true" />
        Queued
      </span>
    );
  }
  if (state === 'indexing' || phase === 'indexing' || phase === 'embedding') {
    const page = phase === 'indexing' && progress ? progress : null;
    // A long PDF's page ("p. 75/352") may not fit the column: the words ellipsize, the title says it all.
    return (
      <span
        className="chip chip--indexing"
        title={page ? `${HINT.indexing}: page ${page.page} of ${page.pages} read` : HINT.indexing}
      >
        <Loader2 size={12} aria-hidden="true" className="spin" />
        <span className="ellipsis">
          {phase === 'embedding' ? 'Embedding' : 'Indexing'}
          {page ? <span className="chip__detail">{` p. ${page.page}/${page.pages}`}</span> : null}
        </span>
      </span>
    );
  }
  if (state === 'indexed') {
    return (
      <span className="chip chip--indexed" title={HINT.indexed}>
        <Check size={12} aria-hidden="true" />
        Indexed
      </span>
    );
  }
  return (
    <span className="chip chip--added" title={HINT.added}>
      <Circle size={8} aria-hidden="true" />
      Added
    </span>
  );
}
