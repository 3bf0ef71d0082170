import { AlertTriangle, Check, Circle, Clock, Loader2 } from 'lucide-react';
import type { FileState } from '#shared/api/types.ts';
import { Tip } from '../../components/Tip.tsx';
import type { Phase } from './useFileRows.ts';

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
  reason,
}: {
  state: FileState;
  phase?: Phase;
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
    return (
      <span className="chip chip--indexing" title={HINT.indexing}>
        <Loader2 size={12} aria-hidden="true" className="spin" />
        {phase === 'embedding' ? 'Embedding' : 'Indexing'}
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
