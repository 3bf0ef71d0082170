import './progress.css';

/** A determinate bar (value 0..1) or an indeterminate one (value null). */
export function ProgressBar({ value, label }: { value: number | null; label: string }) {
  const pct = value === null ? null : Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div
      className={pct === null ? 'progress progress--indeterminate' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct ?? undefined}
    >
      <div className="progress__fill" style={{ width: pct === null ? undefined : `${pct}%` }} />
    </div>
  );
}
