import { Link2 } from 'lucide-react';
import { useState } from 'react';
import type { DuplicatePair } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { call } from '../../lib/api.ts';
import './entity.css';

/** Entities with a very close name: a person may link them (a soft SAME_AS edge); nothing is merged. */
export function EntityDuplicates({
  pairs,
  self,
  onLinked,
}: {
  pairs: DuplicatePair[];
  self: string;
  onLinked: () => void;
}) {
  const app = useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const link = async (pair: DuplicatePair) => {
    const other = pair.a.id === self ? pair.b : pair.a;
    setBusy(other.id);
    try {
      await call('entities.link', { from: self, to: other.id });
      app.notify(`Linked with ${other.label} (SAME_AS). Both stay as they are.`, 'success');
      onLinked();
    } catch (err) {
      app.notify(`Could not link: ${err instanceof Error ? err.message : String(err)}`, 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="entity__section" aria-label="Possible duplicates">
      <h3 className="entity__heading">Possible duplicates</h3>
      <ul className="entity__list">
        {pairs.map((pair) => {
          const other = pair.a.id === self ? pair.b : pair.a;
          return (
            <li key={other.id} className="entity__row">
              <div>
                <button type="button" className="link-button" onClick={() => app.openDossier(other.id)}>
                  {other.label}
                </button>{' '}
                <span className="scope-badge">{other.scope}</span>
                <p className="muted">{pair.reason}</p>
              </div>
              <button
                type="button"
                className="button button--small"
                disabled={busy !== null}
                onClick={() => void link(pair)}
                aria-label={`Same as ${other.label}: link them`}
              >
                <Link2 size={13} aria-hidden="true" />
                Same as…
              </button>
            </li>
          );
        })}
      </ul>
      <p className="muted">Linking records a soft SAME_AS edge; nothing is merged.</p>
    </section>
  );
}
