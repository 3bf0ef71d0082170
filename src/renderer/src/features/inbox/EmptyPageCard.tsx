import { ExternalLink, FileX, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { EmptyPageCardView } from '#shared/api/ops/inbox.ts';
import { formatRelative } from '../../lib/format.ts';
import './inbox.css';

export type EmptyPageCardProps = {
  card: EmptyPageCardView;
  current: boolean;
  busy: boolean;
  onFocus: () => void;
  onOpen: () => void;
  onDismiss: () => void;
};

/** An Empty page (docs/FACTS.md [K13]): an entity left with no current fact, and why. Open or Dismiss. */
export function EmptyPageCard(props: EmptyPageCardProps) {
  const { card: c, current, busy } = props;
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <article
      ref={ref}
      className={current ? 'proposal review-card is-current' : 'proposal review-card'}
      aria-label={`Empty page: ${c.entity.label}`}
      aria-current={current ? 'true' : undefined}
      onFocus={props.onFocus}
    >
      <header className="proposal__head">
        <h2 className="proposal__label">{c.entity.label}</h2>
        <span className="kind-tag">{c.entity.kind}</span>
        <span className="scope-badge">{c.entity.scope}</span>
        <span className="proposal__confidence" title={c.changedAt}>
          Empty page · {formatRelative(c.changedAt)}
        </span>
      </header>
      <p className="proposal__why">
        <FileX size={13} aria-hidden="true" />
        <span>
          <strong>No current fact:</strong> {c.why}
        </span>
      </p>
      <footer className="proposal__actions">
        <button type="button" className="button button--primary" onClick={props.onOpen}>
          <ExternalLink size={14} aria-hidden="true" />
          Open <kbd>A</kbd>
        </button>
        {c.canResolve ? (
          <button type="button" className="button button--danger" onClick={props.onDismiss} disabled={busy}>
            <X size={14} aria-hidden="true" />
            Dismiss <kbd>R</kbd>
          </button>
        ) : (
          <span className="proposal__readonly">Only a member of {c.entity.scope} can dismiss this.</span>
        )}
      </footer>
    </article>
  );
}
