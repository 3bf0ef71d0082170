import { Loader2 } from 'lucide-react';
import { ProgressBar } from '../components/ProgressBar.tsx';
import type { QueueProgress } from '../lib/upload-queue.ts';
import './overlays.css';

/** While a drop is being added: how many files of how many, and which one. */
export function UploadPanel({ progress }: { progress: QueueProgress }) {
  return (
    <div className="upload-panel" role="status" aria-label="Adding files">
      <div className="upload-panel__line">
        <Loader2 size={14} className="spin" aria-hidden="true" />
        <span>
          Adding {progress.done.toLocaleString()} of {progress.total.toLocaleString()} files
        </span>
      </div>
      {progress.current ? <div className="upload-panel__name ellipsis">{progress.current}</div> : null}
      <ProgressBar value={progress.total ? progress.done / progress.total : null} label="Adding files" />
    </div>
  );
}
