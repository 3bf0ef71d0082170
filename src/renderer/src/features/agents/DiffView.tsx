import { Minus, Plus, X } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { sectionTitle } from './agent-format.ts';

export type DiffViewProps = { agent: string; from: number; to: number; onClose: () => void };

/** What changed from one version to another, per section: entries added and removed (agents.diff). */
export function DiffView({ agent, from, to, onClose }: DiffViewProps) {
  const diff = useCall('agents.diff', { agent, from, to });
  const sections = (diff.data?.sections ?? []).filter((s) => s.added.length + s.removed.length > 0);
  return (
    <section className="brain-diff" aria-label={`Diff v${from} → v${to}`}>
      <header className="brain-diff__header">
        <h3 className="brain__section-title">
          v{from} → v{to}
        </h3>
        <button type="button" className="icon-button" aria-label="Close the diff" onClick={onClose}>
          <X size={14} aria-hidden="true" />
        </button>
      </header>
      {diff.error ? <ErrorNotice error={diff.error} title="Could not compare the versions" /> : null}
      {!diff.data && !diff.error ? <Skeleton lines={3} label="Comparing" /> : null}
      {diff.data && sections.length === 0 ? (
        <p className="muted">The two versions hold the same entries.</p>
      ) : null}
      {sections.map((s) => (
        <section key={s.section} className="brain-diff__section" aria-label={sectionTitle(s.section)}>
          <h4 className="brain-diff__title">{sectionTitle(s.section)}</h4>
          <ul className="brain-diff__list">
            {s.added.map((e) => (
              <li key={`+${e.text}`} className="brain-diff__added" aria-label={`Added: ${e.text}`}>
                <Plus size={12} aria-hidden="true" /> {e.text}
              </li>
            ))}
            {s.removed.map((e) => (
              <li key={`-${e.text}`} className="brain-diff__removed" aria-label={`Removed: ${e.text}`}>
                <Minus size={12} aria-hidden="true" /> {e.text}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
