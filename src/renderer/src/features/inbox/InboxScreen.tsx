import { Inbox } from 'lucide-react';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { ProposalCard } from './ProposalCard.tsx';
import { RejectDialog } from './RejectDialog.tsx';
import { useInboxReview } from './use-inbox-review.ts';
import './inbox.css';

/** What write-back proposed and the gate sent to review: approve, edit then approve, or reject with a reason. */
export function InboxScreen() {
  const { status } = useStatus();
  const review = useInboxReview();
  const { inbox, items, current, editing, draft } = review;
  const off = status?.chatModel.status === 'off';

  return (
    <section className="screen" aria-labelledby="inbox-title">
      <header className="screen__header">
        <h1 id="inbox-title" className="screen__title">
          Inbox
        </h1>
        <span className="screen__meta">
          {inbox.data ? `${inbox.data.pending} waiting for you` : '…'} · <kbd>A</kbd> approve · <kbd>E</kbd>{' '}
          edit · <kbd>R</kbd> reject · <kbd>J</kbd>/<kbd>K</kbd> move
        </span>
      </header>
      {off ? (
        <p className="notice notice--info" role="note">
          Write-back is off: {status?.chatModel.reason}. Runs wait until a chat model is set in Settings.
        </p>
      ) : null}
      <div className="screen__body screen__body--scroll">
        {inbox.error ? (
          <ErrorNotice error={inbox.error} title="Could not load the inbox" onRetry={inbox.refresh} />
        ) : null}
        {!inbox.data && !inbox.error ? <Skeleton lines={6} label="Loading the inbox" /> : null}
        {inbox.data && items.length === 0 ? <NothingToReview /> : null}
        <ul className="proposals" aria-label="Proposals">
          {items.map((p, i) => (
            <li key={p.id}>
              <ProposalCard
                proposal={p}
                current={p.id === current?.id}
                editing={editing === p.id}
                draft={draft}
                busy={review.busy}
                onDraft={review.setDraft}
                onFocus={() => review.setIndex(i)}
                onApprove={() => void review.approve(p.id, editing === p.id ? draft : undefined)}
                onEdit={() => review.startEdit(p.id, p.body)}
                onCancelEdit={() => review.setEditing(null)}
                onReject={() => review.setRejecting(p.id)}
              />
            </li>
          ))}
        </ul>
      </div>
      <RejectDialog
        label={review.rejecting ? review.rejecting.label : null}
        onClose={() => review.setRejecting(null)}
        onReject={review.reject}
      />
    </section>
  );
}

function NothingToReview() {
  return (
    <div className="empty">
      <div className="empty__art" aria-hidden="true">
        <Inbox size={28} />
      </div>
      <h2 className="empty__title">Nothing to review</h2>
      <p className="empty__text">
        When an agent ends a run, or you close a chat with “Remember this”, write-back proposes what is worth
        keeping. Confident org knowledge goes straight in; sensitive, uncertain and personal proposals wait
        here.
      </p>
    </div>
  );
}
