import { FolderPlus, Sparkles, Upload } from 'lucide-react';

export type EmptyFilesProps = {
  onLoadSample: () => void;
  onWatch: () => void;
  onPickFiles: () => void;
  busy: boolean;
};

/** First launch: what to do to get started, with each way one click away. */
export function EmptyFiles({ onLoadSample, onWatch, onPickFiles, busy }: EmptyFilesProps) {
  return (
    <div className="empty">
      <div className="empty__art" aria-hidden="true">
        <Upload size={28} />
      </div>
      <h2 className="empty__title">Drop files here, watch a folder, or load the sample workspace</h2>
      <p className="empty__text">
        Org Brain reads Markdown, text, CSV, web pages, PDF, Word, Excel and PowerPoint files and pictures
        (read by OCR) up to 100 MB. Files become answerable once they are indexed; every answer cites the
        passage it came from.
      </p>
      <div className="empty__actions">
        <button type="button" className="button button--primary" onClick={onLoadSample} disabled={busy}>
          <Sparkles size={15} aria-hidden="true" />
          Load sample workspace
        </button>
        <button type="button" className="button" onClick={onWatch}>
          <FolderPlus size={15} aria-hidden="true" />
          Watch a folder…
        </button>
        <button type="button" className="button" onClick={onPickFiles}>
          <Upload size={15} aria-hidden="true" />
          Choose files…
        </button>
      </div>
    </div>
  );
}
