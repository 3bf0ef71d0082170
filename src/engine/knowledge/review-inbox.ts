/**
 * The review cards of the inbox (docs/FACTS.md [K12], [K13]), one list for every surface:
 * Possible duplicates (stored, oldest first), then Empty pages (derived, most recently emptied
 * first). A page of the list runs on through both kinds, so paging needs no cursor of its own.
 */
import { REVIEW_CARD_LIMITS, type ResolvedCard, type ReviewCards } from '#shared/api/ops/inbox.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import { resolveDuplicateCard } from './duplicate-decide.ts';
import { dismissEmptyPage, listEmptyPages, parseEmptyCardId } from './empty-pages.ts';
import {
  type CardDecider,
  type CardReader,
  countDuplicateCards,
  listDuplicateCards,
} from './review-cards.ts';

export type CardQuery = {
  kind?: 'duplicate' | 'empty-page';
  all?: boolean;
  offset?: number;
  limit?: number;
};

export function listReviewCards(db: Db, reader: CardReader, query: CardQuery = {}): ReviewCards {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? REVIEW_CARD_LIMITS.pageDefault;
  const pendingDuplicates = countDuplicateCards(db, reader);
  const duplicates =
    query.kind === 'empty-page'
      ? 0
      : query.all
        ? countDuplicateCards(db, reader, { all: true })
        : pendingDuplicates;
  const cards: ReviewCards['cards'] = [];
  if (offset < duplicates)
    cards.push(
      ...listDuplicateCards(db, reader, {
        all: query.all,
        offset,
        limit: Math.min(limit, duplicates - offset),
      }),
    );
  // Empty pages are derived: one query gives their number and the page's cards.
  const empty = listEmptyPages(db, reader, {
    offset: Math.max(0, offset - duplicates),
    limit: query.kind === 'duplicate' ? 0 : limit - cards.length,
  });
  cards.push(...empty.cards);
  const counts = { duplicate: pendingDuplicates, emptyPage: empty.total };
  return {
    counts,
    pending: counts.duplicate + counts.emptyPage,
    total: duplicates + (query.kind === 'duplicate' ? 0 : empty.total),
    offset,
    cards,
  };
}

/** Decides a card by its id: a Possible duplicate (same, new, dismiss) or an Empty page (dismiss). */
export function resolveReviewCard(
  db: Db,
  d: CardDecider,
  input: { card: string; action: 'same' | 'new' | 'dismiss'; entity?: string },
): ResolvedCard {
  if (input.action !== 'same' && input.entity !== undefined)
    throw new AppError(
      'validation-failed',
      `An entity is chosen only with "same", not with "${input.action}".`,
    );
  if (parseEmptyCardId(input.card)) return dismissEmptyPage(db, d, input.card, input.action);
  return resolveDuplicateCard(db, d, input);
}
