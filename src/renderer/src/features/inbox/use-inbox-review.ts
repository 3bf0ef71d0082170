/**
 * Reviewing the inbox from the keyboard: J/K move the current card, A approves it, E edits it
 * (Ctrl/Cmd+Enter approves the edit, Esc leaves it), R asks for a reason to reject it. The review
 * cards take the same keys (docs/FACTS.md [K12], [K13]): A is "Same as" the first candidate on a
 * Possible duplicate and "Open" on an Empty page, R dismisses either. The letters are off while a
 * dialog or menu is open and while editing.
 */
import { useEffect, useState } from 'react';
import type { ReviewCardView } from '#shared/api/ops/inbox.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { useApp } from '../../app/app-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { useHotkey } from '../../hooks/useHotkey.ts';
import { call } from '../../lib/api.ts';
import { type InboxFilter, useReviewCards } from './use-review-cards.ts';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function dialogOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');
}

/** One card of the inbox as the keys move over it: a proposal or a review card. */
export type InboxEntry =
  | { key: string; proposal: ProposalView; card?: never }
  | { key: string; card: ReviewCardView; proposal?: never };

/** The approve-like action a card offers, if the reader may take it. */
function canApprove(e: InboxEntry | undefined): boolean {
  if (!e) return false;
  if (e.proposal) return e.proposal.canDecide;
  const c = e.card;
  if (c.kind === 'empty-page') return true;
  return c.canResolve && !c.stale && c.candidates.length > 0;
}

export function useInboxReview() {
  const app = useApp();
  const inbox = useCall('inbox.list', undefined, { refetchOn: ['inbox.changed'] });
  const [filter, setFilter] = useState<InboxFilter>('all');
  const review = useReviewCards(filter);
  const proposals = filter === 'all' || filter === 'proposals' ? (inbox.data?.items ?? []) : [];
  const cards = filter === 'proposals' ? [] : (review.cards.data?.cards ?? []);
  const entries: InboxEntry[] = [
    ...proposals.map((p) => ({ key: p.id, proposal: p })),
    ...cards.map((c) => ({ key: c.id, card: c })),
  ];
  const [index, setIndex] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [rejecting, setRejecting] = useState<string | null>(null);
  // A sensitive proposal approved as it is waits for a confirmation first (ApproveSensitive.tsx).
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = entries[Math.min(index, entries.length - 1)];

  useEffect(() => {
    if (index > 0 && index >= entries.length) setIndex(Math.max(0, entries.length - 1));
  }, [index, entries.length]);

  const approve = async (id: string, body?: string, confirmSensitive = false) => {
    setBusy(true);
    try {
      const p = await call('inbox.approve', {
        id,
        ...(body !== undefined ? { body } : {}),
        ...(confirmSensitive ? { confirmSensitive } : {}),
      });
      setEditing(null);
      app.notify(
        `Approved${p.edited ? ' with your edit' : ''}: “${p.label}” is now in ${p.scope}`,
        'success',
      );
      inbox.refresh();
    } catch (err) {
      app.notify(`Could not approve it: ${errorText(err)}`, 'error');
    } finally {
      setBusy(false);
    }
  };
  const startEdit = (id: string, body: string) => {
    setEditing(id);
    setDraft(body);
  };
  const reject = async (reason: string) => {
    if (!rejecting) return;
    await call('inbox.reject', { id: rejecting, reason });
    app.notify('Rejected', 'success');
    inbox.refresh();
  };
  const resolve = async (card: ReviewCardView, action: 'same' | 'new' | 'dismiss', entity?: string) => {
    setBusy(true);
    try {
      await review.resolve(card, action, entity);
    } finally {
      setBusy(false);
    }
  };
  /** A: approve a proposal, "Same as" the first candidate, open an empty page. */
  /**
   * Approve (the button or A): a proposal flagged sensitive (a password, a key, a personal number
   * was found in it) is asked about first, since once approved everyone in its scope reads it, and
   * a synced workspace sends it to the server. An edit the person made and approves is not asked
   * about again: they have just read and changed the text.
   */
  const requestApprove = (p: ProposalView, body?: string) => {
    if ((body === undefined || body.trim() === p.body) && isSensitive(p)) setConfirming(p.id);
    else void approve(p.id, body);
  };
  const confirmApprove = async () => {
    const id = confirming;
    setConfirming(null);
    if (id) await approve(id, undefined, true);
  };

  const approveCurrent = () => {
    if (!current || !canApprove(current)) return;
    if (current.proposal) return requestApprove(current.proposal);
    const c = current.card;
    if (c.kind === 'empty-page') return app.openDossier(c.entity.id, 'select');
    void resolve(c, 'same', c.candidates[0]?.id);
  };

  // Whether a dialog or menu is open is asked when the key is pressed, not while rendering: opening or
  // closing one (the reject dialog, the palette) re-renders nothing here, so a value from the last
  // render would leave the letters acting behind an open dialog, or dead after it closed.
  const keys = editing === null;
  const unlessDialog =
    (fn: (e: KeyboardEvent) => void) =>
    (e: KeyboardEvent): void => {
      if (!dialogOpen()) fn(e);
    };
  useHotkey(
    'j',
    unlessDialog(() => setIndex((i) => Math.min(entries.length - 1, i + 1))),
    keys,
  );
  useHotkey(
    'k',
    unlessDialog(() => setIndex((i) => Math.max(0, i - 1))),
    keys,
  );
  useHotkey('a', unlessDialog(approveCurrent), keys && !busy);
  // E and R move the focus into a text box: the key press must not type its letter there.
  useHotkey(
    'e',
    unlessDialog((e) => {
      if (!current?.proposal?.canDecide) return;
      e.preventDefault();
      startEdit(current.proposal.id, current.proposal.body);
    }),
    keys,
  );
  useHotkey(
    'r',
    unlessDialog((e) => {
      if (current?.card) {
        if (current.card.canResolve) void resolve(current.card, 'dismiss');
        return;
      }
      if (!current?.proposal?.canDecide) return;
      e.preventDefault();
      setRejecting(current.proposal.id);
    }),
    keys && !busy,
  );

  const pending = inbox.data ? inbox.data.pending + (review.cards.data?.pending ?? 0) : undefined;
  return {
    inbox,
    cards: review.cards,
    cardOffset: review.offset,
    setCardOffset: review.setOffset,
    pending,
    filter,
    setFilter: (f: InboxFilter) => {
      setFilter(f);
      setIndex(0);
    },
    entries,
    current,
    setIndex,
    editing,
    setEditing,
    draft,
    setDraft,
    busy,
    approve,
    resolve,
    startEdit,
    rejecting: inbox.data?.items.find((i) => i.id === rejecting) ?? null,
    setRejecting,
    requestApprove,
    confirming: inbox.data?.items.find((i) => i.id === confirming) ?? null,
    setConfirming,
    confirmApprove,
    reject,
  };
}

/** What the card marks with a shield (ProposalCard.tsx): flagged sensitive, or something was found in it. */
export const isSensitive = (p: ProposalView): boolean => p.sensitive || p.detected.length > 0;
