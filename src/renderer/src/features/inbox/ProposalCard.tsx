import { Check, Pencil, ShieldAlert, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { formatRelative } from '../../lib/format.ts';
import { isSensitive } from './use-inbox-review.ts';
import './inbox.css';

export type ProposalCardProps = {
  proposal: ProposalView;
  current: boolean;
  editing: boolean;
  draft: string;
  busy: boolean;
  onDraft: (text: string) => void;
  onFocus: () => void;
  onApprove: () => void;
  onEdit: () => void;
  onCancelEdit: () => void;
  onReject: () => void;
};

function who(p: ProposalView): string {
  return p.scope.startsWith('user:')
    ? `Only ${p.scope.slice(5)} can decide this`
    : 'Only a workspace admin can decide this';
}

/** One proposal: what it says, where it would go, why it waits here, and the run it came from. Text only, never HTML. */
export function ProposalCard(props: ProposalCardProps) {
  const { proposal: p, current, editing } = props;
  const ref = useRef<HTMLElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  useEffect(() => {
    if (editing) area.current?.focus();
    // Leaving the edit (Esc, Cancel edit) removes the box that had the focus: give it to Edit again,
    // unless it went somewhere on purpose.
    else if (wasEditing.current) {
      const active = document.activeElement;
      if (!active || active === document.body) editButton.current?.focus();
    }
    wasEditing.current = editing;
  }, [editing]);
  const sensitive = isSensitive(p);
  return (
    <article
      ref={ref}
      className={current ? 'proposal is-current' : 'proposal'}
      aria-label={`Proposal: ${p.label}`}
      aria-current={current ? 'true' : undefined}
      onFocus={props.onFocus}
    >
      <header className="proposal__head">
        <h2 className="proposal__label">{p.label}</h2>
        <span className="kind-tag">{p.kind}</span>
        <span className="scope-badge">{p.scope}</span>
        <span className="proposal__confidence" title="The writer's confidence">
          {Math.round(p.confidence * 100)} %
        </span>
      </header>
      <p className={sensitive ? 'proposal__why is-sensitive' : 'proposal__why'}>
        {sensitive ? <ShieldAlert size={13} aria-hidden="true" /> : null}
        <span>
          <strong>In review:</strong> {p.reason}
          {p.detected.length ? ` (found ${p.detected.map((d) => `${d.kind} ${d.sample}`).join(', ')})` : ''}
        </span>
      </p>
      {editing ? (
        <textarea
          ref={area}
          className="input input--area proposal__edit"
          aria-label="Edit the proposal"
          rows={5}
          value={props.draft}
          onChange={(e) => props.onDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              props.onApprove();
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              props.onCancelEdit();
            }
          }}
        />
      ) : (
        <p className="proposal__body">{p.body}</p>
      )}
      {p.run ? (
        <figure className="proposal__run">
          <figcaption>
            From run <span className="mono">{p.run.id}</span> · {p.run.agent} · {p.run.status} ·{' '}
            {formatRelative(p.run.endedAt)}
          </figcaption>
          <blockquote className="proposal__excerpt">{p.run.excerpt}</blockquote>
        </figure>
      ) : null}
      <footer className="proposal__actions">
        {p.canDecide ? (
          <>
            <button
              type="button"
              className="button button--primary"
              onClick={props.onApprove}
              disabled={props.busy}
            >
              <Check size={14} aria-hidden="true" />
              {editing ? 'Approve the edit' : 'Approve'} <kbd>{editing ? 'Ctrl+Enter' : 'A'}</kbd>
            </button>
            {editing ? (
              <button type="button" className="button" onClick={props.onCancelEdit}>
                Cancel edit
              </button>
            ) : (
              <button
                ref={editButton}
                type="button"
                className="button"
                onClick={props.onEdit}
                disabled={props.busy}
              >
                <Pencil size={14} aria-hidden="true" />
                Edit then approve <kbd>E</kbd>
              </button>
            )}
            <button
              type="button"
              className="button button--danger"
              onClick={props.onReject}
              disabled={props.busy}
            >
              <X size={14} aria-hidden="true" />
              Reject <kbd>R</kbd>
            </button>
          </>
        ) : (
          <span className="proposal__readonly">{who(p)}.</span>
        )}
      </footer>
    </article>
  );
}
