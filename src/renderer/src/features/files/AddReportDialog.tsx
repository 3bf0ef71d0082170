import { useState } from 'react';
import type { AddReport } from '#shared/api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import { ReportSections } from './AddReportSections.tsx';
import './add-report.css';

export type AddReportDialogProps = {
  report: AddReport | null;
  source: string;
  /** The added files are indexed without asking (Index on add, or the sample workspace). */
  autoIndex: boolean;
  onClose: () => void;
  onIndexed: (queued: number) => void;
};

/** The result of a drop or a sample load. It stays until dismissed, so no refused file goes unnoticed. */
export function AddReportDialog({ report, source, autoIndex, onClose, onIndexed }: AddReportDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!report) return null;
  const { added, unchanged, refused } = report;
  const scopeKept = report.scopeKept ?? [];
  const title =
    added.length > 0
      ? `Added ${plural(added.length, 'file')}`
      : refused.length > 0
        ? 'Nothing was added'
        : 'Already in the workspace';

  const indexNow = async () => {
    setBusy(true);
    try {
      const res = await call('files.index', { ids: added.map((a) => a.id) });
      onIndexed(res.queued);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={title}
      description={
        <span className="report-summary">
          <span>{source}:</span>
          <span className={added.length ? 'report-count report-count--added' : 'report-count'}>
            {added.length} added
          </span>
          <span className="report-count">{unchanged.length} unchanged</span>
          <span className={refused.length ? 'report-count report-count--refused' : 'report-count'}>
            {refused.length} refused
          </span>
          {scopeKept.length > 0 ? (
            <span className="report-count">{scopeKept.length} kept in their scope</span>
          ) : null}
        </span>
      }
      size="large"
      footer={
        <>
          {added.length > 0 && !autoIndex ? (
            <button type="button" className="button" onClick={() => void indexNow()} disabled={busy}>
              Index {plural(added.length, 'added file')} now
            </button>
          ) : null}
          <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
            Done
          </button>
        </>
      }
    >
      {error ? <ErrorNotice error={error} title="Could not queue indexing" /> : null}
      <ReportSections report={report} autoIndex={autoIndex} />
    </Dialog>
  );
}
