import { CheckCircle2, CircleSlash, Copy, Lock } from 'lucide-react';
import type { AddReport } from '#shared/api/types.ts';
import { type ScopeKeptFile, scopeKeptSentence } from '#shared/scope-kept.ts';
import './add-report.css';

/** Each list shows this many files, then says how many more. */
const SHOWN = 200;

/** The report's lists: refused files with their reasons first, then those kept in their scope, added, unchanged. */
export function ReportSections({ report, autoIndex }: { report: AddReport; autoIndex: boolean }) {
  const { added, unchanged, refused } = report;
  const scopeKept = report.scopeKept ?? [];
  return (
    <>
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
    </>
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
