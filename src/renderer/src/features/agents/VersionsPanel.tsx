import { useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { useApp } from '../../app/app-context.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import type { CallState } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import { formatTokens, formatUsd } from './agent-format.ts';
import { DiffView } from './DiffView.tsx';

type Versions = Outputs['agents.versions'];
type Version = Versions['versions'][number];

function tokens(v: Version): string {
  const cached = v.cachedTokens ? ` (${formatTokens(v.cachedTokens)} cached)` : '';
  return `${formatTokens(v.inputTokens)} in · ${formatTokens(v.outputTokens)} out${cached}`;
}

export type VersionsPanelProps = { agent: string; state: CallState<Versions>; onMoved: () => void };

/**
 * Every version of the agent's brain, newest first, the active one marked (docs/AGENTS.md [G6]):
 * a diff against any other version, and rollback, confirmed, naming both versions.
 */
export function VersionsPanel({ agent, state, onMoved }: VersionsPanelProps) {
  const app = useApp();
  const [diff, setDiff] = useState<{ from: number; to: number } | null>(null);
  const [rollTo, setRollTo] = useState<number | null>(null);
  const versions = state.data?.versions ?? [];
  const active = state.data?.activeVersion ?? null;

  const rollback = async () => {
    if (rollTo === null) return;
    const moved = await call('agents.rollback', { agent, to: rollTo });
    app.notify(
      `${agent} now reads version ${moved.activeVersion} (was ${moved.previous ?? 'none'})`,
      'success',
    );
    setRollTo(null);
    onMoved();
  };

  return (
    <section className="agent-panel" aria-labelledby="versions-title">
      <h2 id="versions-title" className="agent-panel__title">
        Versions
      </h2>
      {state.error ? (
        <ErrorNotice error={state.error} title="Could not load the versions" onRetry={state.refresh} />
      ) : null}
      {!state.data && !state.error ? <Skeleton lines={3} label="Loading versions" /> : null}
      {state.data && versions.length === 0 ? (
        <p className="muted">No versions yet: each synthesis writes one, and versions never change.</p>
      ) : null}
      {versions.length > 0 ? (
        <table className="agents-table" aria-label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Model</th>
              <th scope="col">Tokens</th>
              <th scope="col">Cost</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.number} aria-current={v.number === active ? 'true' : undefined}>
                <th scope="row">
                  v{v.number}
                  {v.number === active ? (
                    <span className="chip chip--indexed agent-active">active</span>
                  ) : null}
                </th>
                <td title={formatDateTime(v.createdAt)}>{formatRelative(v.createdAt)}</td>
                <td className="ellipsis">{v.model}</td>
                <td className="num">{tokens(v)}</td>
                <td className="num" title={v.costUsd === null ? 'No price for this model' : undefined}>
                  {formatUsd(v.costUsd)}
                </td>
                <td className="agents-table__actions">
                  {versions.length > 1 ? (
                    <label className="diff-pick">
                      <span className="visually-hidden">Diff v{v.number} against</span>
                      <select
                        className="input"
                        value=""
                        onChange={(e) => {
                          const other = Number(e.target.value);
                          if (!other) return;
                          setDiff({ from: Math.min(other, v.number), to: Math.max(other, v.number) });
                        }}
                      >
                        <option value="">Diff against…</option>
                        {versions
                          .filter((o) => o.number !== v.number)
                          .map((o) => (
                            <option key={o.number} value={o.number}>
                              v{o.number}
                            </option>
                          ))}
                      </select>
                    </label>
                  ) : null}
                  {v.number !== active ? (
                    <button
                      type="button"
                      className="button button--small"
                      onClick={() => setRollTo(v.number)}
                    >
                      Roll back to v{v.number}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {diff ? <DiffView agent={agent} from={diff.from} to={diff.to} onClose={() => setDiff(null)} /> : null}
      <ConfirmDialog
        open={rollTo !== null}
        onOpenChange={(open) => {
          if (!open) setRollTo(null);
        }}
        title={`Roll back ${agent}?`}
        message={
          active === null
            ? `${agent} will read version ${rollTo} from its next run.`
            : `${agent} reads version ${active} now; from its next run it will read version ${rollTo}. No version is changed or deleted, and you can move back at any time.`
        }
        confirmLabel={`Roll back to v${rollTo ?? ''}`}
        onConfirm={rollback}
      />
    </section>
  );
}
