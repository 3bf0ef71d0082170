import { type ReactNode, useState } from 'react';
import { Dialog } from './Dialog.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: () => Promise<void> | void;
};

/** Asks before anything destructive, the focus on Cancel; stays open with the error if the action fails. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  destructive,
  onConfirm,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null);
        onOpenChange(next);
      }}
      title={title}
      description={message}
      size="small"
      role="alertdialog"
      footer={
        <>
          <button type="button" className="button" onClick={() => onOpenChange(false)} data-autofocus>
            Cancel
          </button>
          <button
            type="button"
            className={destructive ? 'button button--danger' : 'button button--primary'}
            onClick={() => void confirm()}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {error ? <ErrorNotice error={error} /> : null}
    </Dialog>
  );
}
