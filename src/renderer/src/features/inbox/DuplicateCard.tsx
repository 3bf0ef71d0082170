import { Check, FilePlus, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { DuplicateCardView } from '#shared/api/ops/inbox.ts';
import { useApp } from '../../app/app-context.ts';
import './inbox.css';

export type DuplicateCardProps = {
  card: DuplicateCardView;
  current: boolean;
  busy: boolean;
  onFocus: () => void;
  onResolve: (action: 'same' | 'new' | 'dismiss', entity?: string) => void;
};

/**
 * A Possible duplicate (docs/FACTS.md [K12]): the name the compile pass could not place, the pages it
 * may be (only those the reader can see), the facts it holds, and the choice: Same as a candidate,
 * New page, or Dismiss. A stale card can only be dismissed. Text only, never HTML.
 */
export function DuplicateCard(props: DuplicateCardProps) {
  const { card: c, current, busy } = props;
  const app = useApp();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  const decidable = c.canResolve && !c.stale;
  const n = c.facts.length;
  return (
    <article
      ref={ref}
      className={current ? 'proposal review-card is-current' : 'proposal review-card'}
      aria-label={`Possible duplicate: ${c.name}`}
      aria-current={current ? 'true' : undefined}
      onFocus={props.onFocus}
    >
      <header className="proposal__head">
        <h2 className="proposal__label">{c.name}</h2>
        <span className="kind-tag">{c.entityKind}</span>
        <span className="scope-badge">{c.scope}</span>
        <span className="proposal__confidence">Possible duplicate</span>
      </header>
      <p className={c.stale ? 'proposal__why is-sensitive' : 'proposal__why'}>
        <span>
          <strong>{c.stale ? 'Stale:' : 'In review:'}</strong>{' '}
          {c.stale
            ? `${c.stale}. It can only be dismissed.`
            : 'the compile pass could not tell whether this is a page you already have.'}{' '}
          From{' '}
          {c.source ? (
            <button
              type="button"
              className="link-button"
              onClick={() => app.openDossier(c.source?.id ?? '', 'select')}
            >
              {c.source.label}
            </button>
          ) : (
            'a source no longer here'
          )}
          .
        </span>
      </p>
      <ul className="review-card__facts" aria-label={`${n} fact${n === 1 ? '' : 's'} it holds`}>
        {c.facts.map((f) => (
          <li key={`${f.attribute ?? ''}|${f.statement}`}>
            {f.attribute ? <span className="kind-tag">{f.attribute}</span> : null} {f.statement}
            {f.validAt ? <span className="muted"> (valid {f.validAt.slice(0, 10)})</span> : null}
            <blockquote className="proposal__excerpt">{f.quote}</blockquote>
          </li>
        ))}
      </ul>
      <footer className="proposal__actions">
        {decidable
          ? c.candidates.map((x, i) => (
              <button
                key={x.id}
                type="button"
                className={i === 0 ? 'button button--primary' : 'button'}
                onClick={() => props.onResolve('same', x.id)}
                disabled={busy}
                title={`${x.scope} · match ${Math.round(x.score * 100)} %`}
              >
                <Check size={14} aria-hidden="true" />
                Same as {x.label} {i === 0 ? <kbd>A</kbd> : null}
              </button>
            ))
          : null}
        {decidable ? (
          <button type="button" className="button" onClick={() => props.onResolve('new')} disabled={busy}>
            <FilePlus size={14} aria-hidden="true" />
            New page
          </button>
        ) : null}
        {c.canResolve ? (
          <button
            type="button"
            className="button button--danger"
            onClick={() => props.onResolve('dismiss')}
            disabled={busy}
          >
            <X size={14} aria-hidden="true" />
            Dismiss <kbd>R</kbd>
          </button>
        ) : (
          <span className="proposal__readonly">Only a member of {c.scope} can decide this.</span>
        )}
      </footer>
    </article>
  );
}
