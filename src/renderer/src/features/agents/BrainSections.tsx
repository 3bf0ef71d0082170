import { Brain } from 'lucide-react';
import type { Outputs } from '#shared/api/contract.ts';
import { formatDateTime } from '../../lib/format.ts';
import { sectionOrder, sectionTitle } from './agent-format.ts';

type Show = Outputs['agents.show'];

export type BrainSectionsProps = {
  brain: Show['brain'];
  version: Show['version'];
  /** The observation id the stream is filtered to, if any. */
  cited: string | null;
  onCite: (id: string | null) => void;
};

/** The active brain as sections of entries, each with the observation ids it cites as chips. */
export function BrainSections({ brain, version, cited, onCite }: BrainSectionsProps) {
  const names = brain ? sectionOrder(Object.keys(brain.sections)) : [];
  const entries = names.reduce((n, s) => n + (brain?.sections[s]?.length ?? 0), 0);
  return (
    <section className="agent-panel" aria-labelledby="brain-title">
      <h2 id="brain-title" className="agent-panel__title">
        Active brain
        {version ? (
          <span className="agent-panel__meta">
            v{version.number} · {formatDateTime(version.createdAt)} · {version.model}
          </span>
        ) : null}
      </h2>
      {!brain || entries === 0 ? (
        <div className="empty empty--small">
          <Brain size={22} aria-hidden="true" />
          <p className="empty__text">
            {brain
              ? 'The last synthesis found nothing to keep yet.'
              : 'No brain yet. Once enough observations are waiting (or with "Synthesize now") the configured chat model writes the first version.'}
          </p>
        </div>
      ) : (
        <>
          {brain.summary ? <p className="brain__summary">{brain.summary}</p> : null}
          {names.map((name) => {
            const list = brain.sections[name] ?? [];
            if (list.length === 0) return null;
            return (
              <section key={name} className="brain__section" aria-label={sectionTitle(name)}>
                <h3 className="brain__section-title">{sectionTitle(name)}</h3>
                <ul className="brain__entries">
                  {list.map((entry, i) => (
                    // Entries have no id of their own; their order within a section is stable per version.
                    // biome-ignore lint/suspicious/noArrayIndexKey: see above
                    <li key={i} className="brain__entry">
                      <span className="brain__text">{entry.text}</span>
                      <span className="brain__cites">
                        {entry.observation_ids.map((id) => (
                          <button
                            key={id}
                            type="button"
                            className={id === cited ? 'obs-chip is-current' : 'obs-chip'}
                            aria-pressed={id === cited}
                            aria-label={`Cited observation ${id}`}
                            title="Show this observation in the stream"
                            onClick={() => onCite(id === cited ? null : id)}
                          >
                            {id.slice(0, 8)}
                          </button>
                        ))}
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </>
      )}
    </section>
  );
}
