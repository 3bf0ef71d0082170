import { FileText, Maximize2, Minimize2, Trash2, X } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import './dossier.css';

export type DossierHeaderProps = {
  label: string | undefined;
  expanded: boolean;
  onToggleExpanded: () => void;
  onClose: () => void;
  /** Offered for a file or a note (docs/FACTS.md [K8]): asks to remove it. */
  onRemove?: () => void;
  /** The Remove… button, which gets the focus back when its dialog is cancelled. */
  removeRef?: RefObject<HTMLButtonElement | null>;
  /** What can be done to the file besides removing it: "Read by OCR" on a PDF (docs/OCR.md [O9]). */
  fileActions?: ReactNode;
};

/** The item's name, and the buttons that remove it, widen or narrow the pane and close it (also Esc). */
export function DossierHeader({
  label,
  expanded,
  onToggleExpanded,
  onClose,
  onRemove,
  removeRef,
  fileActions,
}: DossierHeaderProps) {
  return (
    <header className="dossier__header">
      <div className="dossier__heading">
        <FileText size={16} aria-hidden="true" className="dossier__icon" />
        <h2 className="dossier__title" title={label}>
          {label ?? 'Loading…'}
        </h2>
      </div>
      <div className="dossier__actions">
        {fileActions}
        {onRemove ? (
          <button
            type="button"
            className="button button--ghost button--small"
            ref={removeRef}
            onClick={onRemove}
            title="Remove it: search and chat no longer find it"
          >
            <Trash2 size={13} aria-hidden="true" />
            Remove…
          </button>
        ) : null}
        <button
          type="button"
          className="icon-button"
          onClick={onToggleExpanded}
          aria-label={expanded ? 'Narrow the dossier' : 'Widen the dossier'}
          title={expanded ? 'Narrow' : 'Widen'}
        >
          {expanded ? <Minimize2 size={15} aria-hidden="true" /> : <Maximize2 size={15} aria-hidden="true" />}
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label="Close dossier"
          title="Close (Esc)"
        >
          <X size={16} aria-hidden="true" />
        </button>
      </div>
    </header>
  );
}
