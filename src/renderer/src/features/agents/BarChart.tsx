/** A plain CSS bar chart: one labelled row per bar; an unknown value shows "—" and no bar. */
export type Bar = { key: string; label: string; value: number | null; text: string; title?: string };

export function BarChart({ bars, label, max }: { bars: Bar[]; label: string; max?: number }) {
  const top = max ?? Math.max(0, ...bars.map((b) => b.value ?? 0));
  return (
    <ul className="bars" aria-label={label}>
      {bars.map((b) => (
        <li key={b.key} className="bars__row" title={b.title}>
          <span className="bars__label">{b.label}</span>
          <span className="bars__track" aria-hidden="true">
            {b.value !== null && top > 0 ? (
              <span className="bars__bar" style={{ width: `${Math.max(1, (b.value / top) * 100)}%` }} />
            ) : null}
          </span>
          <span className="bars__value">{b.text}</span>
        </li>
      ))}
    </ul>
  );
}
