import { Inbox } from 'lucide-react';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { ApproveSensitive } from './ApproveSensitive.tsx';
import { DuplicateCard } from './DuplicateCard.tsx';
import { EmptyPageCard } from './EmptyPageCard.tsx';
import { ProposalCard } from './ProposalCard.tsx';
import { RejectDialog } from './RejectDialog.tsx';
import { type InboxEntry, useInboxReview } from './use-inbox-review.ts';
import { CARD_PAGE, type InboxFilter } from './use-review-cards.ts';
import './inbox.css';

type Review = ReturnType<typeof useInboxReview>;

/**
 * What waits for a person: write-back proposals the gate sent to review (approve, edit then approve,
 * or reject with a reason) and the review cards (docs/FACTS.md [K12], [K13]): Possible duplicates
 * from the compile pass and Empty pages.
 */
export function InboxScreen() {
  const { status } = useStatus();
  const review = useInboxReview();
  const { inbox, cards, entries } = review;
  const off = status?.chatModel.status === 'off';
  const loaded = inbox.data !== undefined && cards.data !== undefined;

  return (
    <section className="screen" aria-labelledby="inbox-title">
      <header className="screen__header">
        <h1 id="inbox-title" className="screen__title">
          Inbox
        </h1>
        <span className="screen__meta">
          {review.pending !== undefined ? `${review.pending} waiting for you` : '…'} · <kbd>A</kbd> approve ·{' '}
          <kbd>E</kbd> edit · <kbd>R</kbd> reject · <kbd>J</kbd>/<kbd>K</kbd> move
        </span>
      </header>
      <Filters review={review} />
      {off ? (
        <p className="notice notice--info" role="note">
          Write-back is off: {status?.chatModel.reason}. Runs wait until a chat model is set in Settings.
        </p>
      ) : null}
      <div className="screen__body screen__body--scroll">
        {inbox.error ? (
          <ErrorNotice error={inbox.error} title="Could not load the inbox" onRetry={inbox.refresh} />
        ) : null}
        {cards.error ? (
          <ErrorNotice error={cards.error} title="Could not load the review cards" onRetry={cards.refresh} />
        ) : null}
        {!loaded && !inbox.error && !cards.error ? <Skeleton lines={6} label="Loading the inbox" /> : null}
        {loaded && entries.length === 0 ? <NothingToReview filter={review.filter} /> : null}
        <Section title="Proposals" entries={entries.filter((e) => e.proposal)} review={review} />
        <Section
          title="Possible duplicates"
          entries={entries.filter((e) => e.card?.kind === 'duplicate')}
          review={review}
        />
        <Section
          title="Empty pages"
          entries={entries.filter((e) => e.card?.kind === 'empty-page')}
          review={review}
        />
        <Pager review={review} />
      </div>
      <RejectDialog
        label={review.rejecting ? review.rejecting.label : null}
        onClose={() => review.setRejecting(null)}
        onReject={review.reject}
      />
      <ApproveSensitive
        proposal={review.confirming}
        onClose={() => review.setConfirming(null)}
        onApprove={review.confirmApprove}
      />
    </section>
  );
}

const FILTERS: { value: InboxFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'proposals', label: 'Proposals' },
  { value: 'duplicate', label: 'Possible duplicates' },
  { value: 'empty-page', label: 'Empty pages' },
];

function Filters({ review }: { review: Review }) {
  const proposals = review.inbox.data?.pending;
  const counts = review.cards.data?.counts;
  const countOf = (f: InboxFilter) =>
    f === 'proposals'
      ? proposals
      : f === 'duplicate'
        ? counts?.duplicate
        : f === 'empty-page'
          ? counts?.emptyPage
          : review.pending;
  return (
    <fieldset className="inbox-filters" aria-label="Show">
      {FILTERS.map((f) => {
        const n = countOf(f.value);
        return (
          <button
            key={f.value}
            type="button"
            className={review.filter === f.value ? 'inbox-filter is-on' : 'inbox-filter'}
            aria-pressed={review.filter === f.value}
            onClick={() => review.setFilter(f.value)}
          >
            {f.label}
            {n !== undefined ? <span className="inbox-filter__count">{n}</span> : null}
          </button>
        );
      })}
    </fieldset>
  );
}

function Section({ title, entries, review }: { title: string; entries: InboxEntry[]; review: Review }) {
  if (entries.length === 0) return null;
  const id = `inbox-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <section className="inbox-section" aria-labelledby={id}>
      <h2 id={id} className="inbox-section__title">
        {title}
      </h2>
      <ul className="proposals" aria-label={title}>
        {entries.map((e) => (
          <li key={e.key}>
            <Entry entry={e} review={review} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Entry({ entry, review }: { entry: InboxEntry; review: Review }) {
  const app = useApp();
  const i = review.entries.findIndex((x) => x.key === entry.key);
  const current = entry.key === review.current?.key;
  const onFocus = () => review.setIndex(i);
  if (entry.proposal) {
    const p = entry.proposal;
    const editing = review.editing === p.id;
    return (
      <ProposalCard
        proposal={p}
        current={current}
        editing={editing}
        draft={review.draft}
        busy={review.busy}
        onDraft={review.setDraft}
        onFocus={onFocus}
        onApprove={() => review.requestApprove(p, editing ? review.draft : undefined)}
        onEdit={() => review.startEdit(p.id, p.body)}
        onCancelEdit={() => review.setEditing(null)}
        onReject={() => review.setRejecting(p.id)}
      />
    );
  }
  const c = entry.card;
  if (c.kind === 'duplicate')
    return (
      <DuplicateCard
        card={c}
        current={current}
        busy={review.busy}
        onFocus={onFocus}
        onResolve={(action, entity) => void review.resolve(c, action, entity)}
      />
    );
  return (
    <EmptyPageCard
      card={c}
      current={current}
      busy={review.busy}
      onFocus={onFocus}
      onOpen={() => app.openDossier(c.entity.id, 'select')}
      onDismiss={() => void review.resolve(c, 'dismiss')}
    />
  );
}

/** The review cards come a page at a time; proposals are all shown. */
function Pager({ review }: { review: Review }) {
  const data = review.cards.data;
  if (!data || review.filter === 'proposals' || data.total <= CARD_PAGE) return null;
  const from = data.offset + 1;
  const to = data.offset + data.cards.length;
  return (
    <nav className="inbox-pager" aria-label="Review card pages">
      <button
        type="button"
        className="button button--small"
        disabled={data.offset === 0}
        onClick={() => review.setCardOffset(Math.max(0, data.offset - CARD_PAGE))}
      >
        Previous
      </button>
      <span className="muted">
        Cards {from}–{to} of {data.total}
      </span>
      <button
        type="button"
        className="button button--small"
        disabled={to >= data.total}
        onClick={() => review.setCardOffset(data.offset + CARD_PAGE)}
      >
        Next
      </button>
    </nav>
  );
}

function NothingToReview({ filter }: { filter: InboxFilter }) {
  return (
    <div className="empty">
      <div className="empty__art" aria-hidden="true">
        <Inbox size={28} />
      </div>
      <h2 className="empty__title">Nothing to review</h2>
      <p className="empty__text">
        {filter === 'duplicate'
          ? 'When the compile pass cannot tell whether a name in a source is a page you already have, it asks here instead of guessing.'
          : filter === 'empty-page'
            ? 'A page whose last sources were removed, or whose facts were all retired, shows here so you can look at it or let it go.'
            : 'When an agent ends a run, or you close a chat with “Remember this”, write-back proposes what is worth keeping. Confident org knowledge goes straight in; sensitive, uncertain and personal proposals wait here, with possible duplicates and empty pages.'}
      </p>
    </div>
  );
}
