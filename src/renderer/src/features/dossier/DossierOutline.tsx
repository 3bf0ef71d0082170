import { useEffect, useMemo, useRef } from 'react';
import type { OutlineEntry } from '#shared/api/types.ts';
import { outlineLabels } from './outline-labels.ts';
import './dossier.css';

export type DossierOutlineProps = {
  outline: OutlineEntry[];
  fileLabel: string;
  currentId: string | null;
  onOpen: (id: string) => void;
};

/** The file's sections; a click opens that section, which highlights and scrolls to it. */
export function DossierOutline({ outline, fileLabel, currentId, onOpen }: DossierOutlineProps) {
  const labels = useMemo(() => outlineLabels(outline, fileLabel), [outline, fileLabel]);
  const current = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    void currentId;
    current.current?.scrollIntoView({ block: 'nearest' });
  }, [currentId]);
  if (labels.length === 0) return null;
  return (
    <nav className="dossier__outline" aria-label="Outline">
      <h3 className="dossier__outline-title">Sections</h3>
      <ol>
        {labels.map((s) => (
          <li key={s.id}>
            <button
              ref={s.id === currentId ? current : undefined}
              type="button"
              className="outline-link"
              aria-current={s.id === currentId ? 'location' : undefined}
              onClick={() => onOpen(s.id)}
              title={s.title}
              data-depth={Math.min(s.depth, 4)}
            >
              <span className="ellipsis">{s.text}</span>
              {s.page !== null ? <span className="outline-link__where">p. {s.page}</span> : null}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
