/**
 * Removing files or a note (docs/FACTS.md [K8]), from the Files grid and from the dossier: the dialog
 * names what goes and what that means, runs items.remove for each one when confirmed (the focus starts
 * on Cancel, as in every destructive confirmation (components/ConfirmDialog.tsx), so Delete then Enter
 * removes nothing; Tab to Remove, then Enter), then says what happened: how many facts stopped
 * being current, which entity pages were left empty, and for each item the engine refused, why.
 */
import { useEffect, useRef, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import { runQueue } from '../../lib/upload-queue.ts';
import './remove-dialog.css';

export type RemoveTarget = { id: string; label: string; storageKind: 'file' | 'note' };
type Removed = Outputs['items.remove'];
export type RemoveOutcome = {
  done: { target: RemoveTarget; answer: Removed }[];
  failed: { target: RemoveTarget; error: unknown }[];
};

export type RemoveDialogProps = {
  targets: readonly RemoveTarget[];
  /** The removals are done (some may have failed): the list and the dossier can let go of them. */
  onRemoved?: (outcome: RemoveOutcome) => void;
  /** The dialog closed: cancelled (null) or after the outcome was read. */
  onClose: (outcome: RemoveOutcome | null) => void;
};

const NAMES_SHOWN = 8;
const AT_ONCE = 4;

function nounOf(targets: readonly RemoveTarget[]): string {
  const kinds = new Set(targets.map((t) => t.storageKind));
  return kinds.size > 1 ? 'item' : kinds.has('note') ? 'note' : 'file';
}

export function RemoveDialog({ targets, onRemoved, onClose }: RemoveDialogProps) {
  const [phase, setPhase] = useState<'confirm' | 'working' | 'done'>('confirm');
  const [progress, setProgress] = useState(0);
  const [outcome, setOutcome] = useState<RemoveOutcome | null>(null);
  const done = useRef<HTMLButtonElement>(null);
  // Enter pressed twice before the buttons are disabled still removes once.
  const started = useRef(false);
  const one = targets.length === 1 ? targets[0] : undefined;
  const noun = nounOf(targets);

  // The result replaces the buttons that had focus: Done takes it, so Enter or Esc closes.
  useEffect(() => {
    if (phase === 'done') done.current?.focus();
  }, [phase]);

  const remove = async () => {
    if (started.current) return;
    started.current = true;
    setPhase('working');
    const result: RemoveOutcome = { done: [], failed: [] };
    await runQueue(
      targets,
      AT_ONCE,
      async (target) => {
        try {
          result.done.push({ target, answer: await call('items.remove', { id: target.id }) });
        } catch (error) {
          result.failed.push({ target, error });
        }
      },
      (n) => setProgress(n),
    );
    setOutcome(result);
    setPhase('done');
    onRemoved?.(result);
  };

  const title =
    phase === 'done' && outcome
      ? resultTitle(outcome, targets.length, noun)
      : one
        ? `Remove ${one.label}?`
        : `Remove ${plural(targets.length, noun)}?`;

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && phase !== 'working') onClose(outcome);
      }}
      title={title}
      role={phase === 'done' ? 'dialog' : 'alertdialog'}
      description={phase === 'done' ? undefined : <Consequences count={targets.length} noun={noun} />}
      footer={
        phase === 'done' ? (
          <button
            type="button"
            className="button button--primary"
            ref={done}
            onClick={() => onClose(outcome)}
          >
            Done
          </button>
        ) : (
          <>
            <button
              type="button"
              className="button"
              onClick={() => onClose(null)}
              disabled={phase === 'working'}
              data-autofocus
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => void remove()}
              disabled={phase === 'working'}
            >
              {phase === 'working'
                ? `Removing ${progress.toLocaleString()} of ${targets.length.toLocaleString()}…`
                : 'Remove'}
            </button>
          </>
        )
      }
    >
      {phase === 'done' && outcome ? <RemoveResult outcome={outcome} /> : <Names targets={targets} />}
    </Dialog>
  );
}

/** What removing means, in the words of docs/FACTS.md [K8]. */
function Consequences({ count, noun }: { count: number; noun: string }) {
  const [it, its, supports] = count > 1 ? ['them', 'their', 'they support'] : ['it', 'its', 'it supports'];
  const what = count > 1 ? `${noun}s` : noun;
  return (
    <span className="remove-consequences">
      {`Search and chat will no longer find ${it}. Facts only ${supports} leave their entity pages; ` +
        `facts other sources also support stay. Adding the same ${what} again brings ${it} back, ` +
        `with ${its} facts.`}
    </span>
  );
}

function Names({ targets }: { targets: readonly RemoveTarget[] }) {
  const shown = targets.slice(0, NAMES_SHOWN);
  const more = targets.length - shown.length;
  return (
    <ul className="remove-names" aria-label="To remove">
      {shown.map((t) => (
        <li key={t.id} className="ellipsis" title={t.label}>
          {t.label}
        </li>
      ))}
      {more > 0 ? <li className="muted">and {plural(more, 'more', 'more')}</li> : null}
    </ul>
  );
}

function resultTitle(outcome: RemoveOutcome, total: number, noun: string): string {
  const removed = outcome.done.filter((d) => d.answer.removed);
  const only = removed.length === 1 && total === 1 ? removed[0] : undefined;
  if (only) return `Removed ${only.answer.label}`;
  if (removed.length === 0) return outcome.failed.length ? 'Nothing was removed' : 'Already removed';
  if (outcome.failed.length === 0) return `Removed ${plural(removed.length, noun)}`;
  return `Removed ${removed.length.toLocaleString()} of ${plural(total, noun)}`;
}

/** How many facts stopped being current, the entity pages left empty, and every refusal with its reason. */
function RemoveResult({ outcome }: { outcome: RemoveOutcome }) {
  const removed = outcome.done.filter((d) => d.answer.removed);
  const already = outcome.done.filter((d) => !d.answer.removed);
  const facts = removed.reduce((n, d) => n + d.answer.retiredFacts, 0);
  const emptied = [...new Map(removed.flatMap((d) => d.answer.emptied).map((e) => [e.id, e.label])).values()];
  return (
    <>
      {removed.length > 0 ? (
        <div className="remove-result" role="status">
          <p>
            {facts === 0
              ? 'No fact stopped being current.'
              : `${plural(facts, 'fact')} stopped being current.`}
          </p>
          {emptied.length > 0 ? (
            <p>
              Entity pages left with no current fact: <strong>{emptied.join(', ')}</strong>.
            </p>
          ) : null}
        </div>
      ) : null}
      {already.length > 0 ? (
        <p className="muted">
          {already.map((d) => d.answer.label).join(', ')} {already.length === 1 ? 'was' : 'were'} removed
          already.
        </p>
      ) : null}
      {outcome.failed.map((f) => (
        <ErrorNotice key={f.target.id} error={f.error} title={`Could not remove ${f.target.label}`} />
      ))}
    </>
  );
}
