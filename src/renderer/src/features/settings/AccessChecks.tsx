import { Play, Save } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ProgressBar } from '../../components/ProgressBar.tsx';
import { formatRelative } from '../../lib/format.ts';
import { AccessCheckTable } from './AccessCheckTable.tsx';
import { useAccessChecks } from './use-access-checks.ts';
import './access-checks.css';
import './settings.css';

const EXAMPLE = `[
  {
    "as": "ana",
    "question": "When does the supplier contract renew?",
    "mustReach": ["contract.md"],
    "mustNotReach": ["salaries.xlsx"]
  }
]`;

/**
 * Access checks ([R4] in docs/RETRIEVAL.md), for the local admin: cases the search must get right,
 * each question searched as its member in their scopes over this workspace, kept across restarts
 * and run here or with `brain access-check`. Anyone else is told why they cannot run them.
 */
export function AccessChecks() {
  const s = useAccessChecks();
  return (
    <section className="settings-section" aria-labelledby="access-checks-title">
      <h2 id="access-checks-title" className="settings-section__title">
        Access checks
      </h2>
      {s.forbidden ? (
        <p className="setting-row__hint" role="note">
          {s.forbidden}
        </p>
      ) : (
        <>
          <p className="setting-row__hint">
            Each case's question is searched as its member, in the scopes they have. It passes when the search
            reaches every <code>mustReach</code> file and none of <code>mustNotReach</code>. Name files by id,
            path or name as in Files. JSON or YAML; <kbd>Ctrl</kbd>+<kbd>Enter</kbd> runs them.
          </p>
          <label className="field">
            <span className="field__label">Checks</span>
            <textarea
              className="input input--area access-checks__text"
              aria-label="Access checks"
              spellCheck={false}
              placeholder={EXAMPLE}
              rows={10}
              value={s.text}
              disabled={!s.ready}
              onChange={(e) => s.setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  void s.run();
                }
              }}
            />
            <span className="field__hint">
              {s.savedAt
                ? `Kept in this workspace ${formatRelative(s.savedAt)}${s.isSaved ? '' : ' · changed since'}`
                : 'Not kept yet: Save or Run keeps them in this workspace.'}
            </span>
          </label>
          <div className="access-checks__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => void s.run()}
              disabled={!s.ready || s.busy !== null || !s.text.trim()}
            >
              <Play size={14} aria-hidden="true" />
              Run checks
            </button>
            <button
              type="button"
              className="button"
              onClick={() => void s.save()}
              disabled={!s.ready || s.busy !== null || s.isSaved}
            >
              <Save size={14} aria-hidden="true" />
              Save
            </button>
          </div>
          {s.busy === 'run' ? (
            <div role="status" aria-label="Running access checks">
              <p className="setting-row__hint">Searching as each member…</p>
              <ProgressBar value={null} label="Access checks running" />
            </div>
          ) : null}
          {s.failure ? <ErrorNotice error={s.failure.error} title={s.failure.title} /> : null}
          {s.loadError ? <ErrorNotice error={s.loadError} title="Could not read the access checks" /> : null}
          {s.report && s.busy !== 'run' ? <AccessCheckTable report={s.report} /> : null}
        </>
      )}
    </section>
  );
}
