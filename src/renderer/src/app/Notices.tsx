import { X } from 'lucide-react';
import type { Notice } from './app-context.ts';
import './overlays.css';

/** Short-lived confirmations ("Queued 4 files"), announced politely; errors stay until closed. */
export function Notices({ notices, onDismiss }: { notices: Notice[]; onDismiss: (id: number) => void }) {
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`toast toast--${n.tone}`}>
          <span>{n.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => onDismiss(n.id)}>
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
