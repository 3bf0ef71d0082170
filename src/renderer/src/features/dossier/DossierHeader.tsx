import { FileText, Maximize2, Minimize2, X } from 'lucide-react';
import './dossier.css';

export type DossierHeaderProps = {
  label: string | undefined;
  expanded: boolean;
  onToggleExpanded: () => void;
  onClose: () => void;
};

/** The item's name, and the buttons that widen or narrow the pane and close it (also Esc). */
export function DossierHeader({ label, expanded, onToggleExpanded, onClose }: DossierHeaderProps) {
  return (
    <header className="dossier__header">
      <div className="dossier__heading">
        <FileText size={16} aria-hidden="true" className="dossier__icon" />
        <h2 className="dossier__title" title={label}>
          {label ?? 'Loading…'}
        </h2>
      </div>
      <div className="dossier__actions">
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
