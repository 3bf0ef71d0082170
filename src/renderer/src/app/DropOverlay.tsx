import { Upload } from 'lucide-react';
import './overlays.css';

/** Covers the window while files are dragged over it. */
export function DropOverlay() {
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">
        <Upload size={28} />
        <strong>Drop files or folders to add them</strong>
        <span>
          Markdown, text, CSV, web pages, PDF, Word, Excel, PowerPoint and pictures · up to 100 MB each
        </span>
      </div>
    </div>
  );
}
