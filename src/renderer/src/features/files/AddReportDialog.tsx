import { CheckCircle2, CircleSlash, Copy, Lock } from 'lucide-react';
import { useState } from 'react';
import type { AddReport } from '#shared/api/types.ts';
import { type ScopeKeptFile, scopeKeptSentence } from '#shared/scope-kept.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';

const SHOWN = 200;

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
      {refused.length > 0 ? (
        <section aria-label="Refused files" className="report-section">
          <h3 className="report-section__title">
            <CircleSlash size={14} aria-hidden="true" /> Refused
          </h3>
          <ul className="report-list">
            {refused.slice(0, SHOWN).map((r) => (
              <li key={`${r.path}:${r.reason}`} className="report-list__item report-list__item--refused">
                <span className="report-list__name">{r.path}</span>
                <span className="report-list__reason">{r.reason}</span>
              </li>
            ))}
          </ul>
          {refused.length > SHOWN ? <p className="muted">and {refused.length - SHOWN} more</p> : null}
        </section>
      ) : null}
      <ScopeKeptSection kept={scopeKept} />
      {added.length > 0 ? (
        <section aria-label="Added files" className="report-section">
          <h3 className="report-section__title">
            <CheckCircle2 size={14} aria-hidden="true" /> Added
            {autoIndex ? <span className="muted"> · indexing starts automatically</span> : null}
          </h3>
          <ul className="report-list report-list--compact">
            {added.slice(0, SHOWN).map((a) => (
              <li key={a.id} className="report-list__item">
                <span className="report-list__name">{a.path || a.label}</span>
              </li>
            ))}
          </ul>
          {added.length > SHOWN ? <p className="muted">and {added.length - SHOWN} more</p> : null}
        </section>
      ) : null}
      {unchanged.length > 0 ? (
        <section aria-label="Unchanged files" className="report-section">
          <h3 className="report-section__title">
            <Copy size={14} aria-hidden="true" /> Unchanged (same bytes already here)
          </h3>
          <ul className="report-list report-list--compact">
            {unchanged.slice(0, SHOWN).map((u) => (
              <li key={u.id} className="report-list__item">
                <span className="report-list__name">{u.path || u.label}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Dialog>
  );
}

/**
 * Files already here that the drop asked to put in another scope: adding never moves a file
 * (moving is `brain move`, docs/SYNC_SPEC.md [S24]), and the report says so in the CLI's words.
 */
function ScopeKeptSection({ kept }: { kept: readonly ScopeKeptFile[] }) {
  if (kept.length === 0) return null;
  return (
    <section aria-label="Files kept in their scope" className="report-section">
      <h3 className="report-section__title">
        <Lock size={14} aria-hidden="true" /> Kept in their scope
      </h3>
      <ul className="report-list">
        {kept.slice(0, SHOWN).map((k) => (
          <li key={k.id} className="report-list__item">
            <span className="report-list__name">{k.path || k.label}</span>
            <span className="muted">{scopeKeptSentence(k)}</span>
          </li>
        ))}
      </ul>
      {kept.length > SHOWN ? <p className="muted">and {kept.length - SHOWN} more</p> : null}
    </section>
  );
}
