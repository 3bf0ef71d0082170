import { type FormEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

export type RejectDialogProps = {
  label: string | null;
  onClose: () => void;
  onReject: (reason: string) => Promise<void>;
};

/** Rejecting takes a reason: it is kept on the proposal and logged. */
export function RejectDialog({ label, onClose, onReject }: RejectDialogProps) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (label !== null) {
      setReason('');
      setError(null);
    }
  }, [label]);
  const submit = async (e: FormEvent | KeyboardEvent) => {
    e.preventDefault();
    if (!reason.trim()) return;
    setBusy(true);
    try {
      await onReject(reason.trim());
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={label !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Reject this proposal?"
      description={`“${label ?? ''}” will not be written. Say why, so the next pass learns from it.`}
      size="small"
    >
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field__label">Reason</span>
          <textarea
            className="input input--area"
            aria-label="Reason"
            data-autofocus
            rows={3}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              // As in the edit box: Ctrl/Cmd+Enter sends, Enter alone is a new line.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
            }}
          />
          <span className="field__hint">
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> rejects
          </span>
        </label>
        {error ? <ErrorNotice error={error} title="Could not reject it" /> : null}
        <div className="form__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--danger" disabled={busy || !reason.trim()}>
            Reject
          </button>
        </div>
      </form>
    </Dialog>
  );
}
