/**
 * The inbox's review cards (docs/FACTS.md [K12], [K13]): Possible duplicates and Empty pages, a
 * page at a time, refreshed when the inbox, the files or a compile pass change; and deciding one.
 */
import { useState } from 'react';
import type { ReviewCardView } from '#shared/api/ops/inbox.ts';
import { useApp } from '../../app/app-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';

/** What the inbox shows: everything, or one kind. */
export type InboxFilter = 'all' | 'proposals' | 'duplicate' | 'empty-page';

export const CARD_PAGE = 50;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function useReviewCards(filter: InboxFilter) {
  const app = useApp();
  const [offset, setOffset] = useState(0);
  const [shownFilter, setShownFilter] = useState(filter);
  // A new filter starts at its first page.
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setOffset(0);
  }
  const kind = filter === 'duplicate' || filter === 'empty-page' ? { kind: filter } : {};
  const cards = useCall(
    'inbox.cards',
    { ...kind, offset, limit: CARD_PAGE },
    { refetchOn: ['inbox.changed', 'files.changed', 'compile.progress'] },
  );

  const resolve = async (card: ReviewCardView, action: 'same' | 'new' | 'dismiss', entity?: string) => {
    try {
      const out = await call('inbox.resolveCard', { card: card.id, action, ...(entity ? { entity } : {}) });
      const n = out.facts.length;
      const facts = `${n} fact${n === 1 ? '' : 's'}`;
      app.notify(
        action === 'dismiss'
          ? 'Dismissed'
          : action === 'same'
            ? `Same as “${out.entity?.label}”: ${facts} stated there`
            : `New page “${out.entity?.label}” with ${facts}`,
        'success',
      );
    } catch (err) {
      app.notify(`Could not ${action === 'dismiss' ? 'dismiss' : 'resolve'} it: ${errorText(err)}`, 'error');
    } finally {
      cards.refresh();
    }
  };

  return { cards, offset, setOffset, resolve };
}
