/**
 * The Inbox's review cards (docs/FACTS.md [K12], [K13]) in the real app shell over a fake engine:
 * Possible duplicates and Empty pages next to proposals, the same keys (J/K move, A same-as/open,
 * R dismiss), the kind filter, stale and read-only cards, the rail's count.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReviewCardView } from '#shared/api/ops/inbox.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { duplicateCard, emptyPageCard, proposal, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

/** An engine whose inbox holds `proposals` and `cards` until they are decided. */
function engine(proposals: ProposalView[], cards: ReviewCardView[]) {
  let pendingCards = [...cards];
  const t = fakeTransport(shellAnswers());
  t.answer('inbox.list', () => ({ pending: proposals.length, items: proposals }));
  t.answer('inbox.cards', (input) => {
    const shown = pendingCards.filter((c) => !input?.kind || c.kind === input.kind);
    const counts = {
      duplicate: pendingCards.filter((c) => c.kind === 'duplicate').length,
      emptyPage: pendingCards.filter((c) => c.kind === 'empty-page').length,
    };
    return {
      counts,
      pending: counts.duplicate + counts.emptyPage,
      total: shown.length,
      offset: input?.offset ?? 0,
      cards: shown.slice(input?.offset ?? 0, (input?.offset ?? 0) + (input?.limit ?? 50)),
    };
  });
  t.answer('inbox.resolveCard', (input) => {
    const card = pendingCards.find((c) => c.id === input.card);
    if (!card) throw new Error(`no card ${input.card}`);
    pendingCards = pendingCards.filter((c) => c.id !== input.card);
    const entity =
      input.action === 'dismiss'
        ? null
        : {
            id: input.entity ?? 'e_new',
            label: input.entity ? 'Acme 1 Ltd.' : 'Acme 1',
            storageKind: 'entity' as const,
            kind: 'company',
            scope: 'org',
          };
    return {
      card: input.card,
      kind: card.kind,
      action: input.action,
      state: input.action === 'dismiss' ? ('dismissed' as const) : ('resolved' as const),
      entity,
      facts: input.action === 'dismiss' ? [] : ['e_cand1a.0123456789ab'],
    };
  });
  return t;
}

async function openInbox(t: ReturnType<typeof engine>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: /^Inbox/ }));
  await screen.findByRole('heading', { name: 'Inbox', level: 1 });
  return { ...view, rail };
}

const current = () => screen.getAllByRole('article').find((a) => a.getAttribute('aria-current') === 'true');

describe('Inbox review cards', () => {
  it('shows proposals, Possible duplicates and Empty pages in their sections; J/K move across them', async () => {
    const t = engine([proposal(1)], [duplicateCard(1), emptyPageCard(1)]);
    const { user, rail } = await openInbox(t);
    const dup = await screen.findByRole('article', { name: 'Possible duplicate: Acme 1' });
    within(dup).getByText('invoice-1.md');
    within(dup).getByText('Acme 1 supplies paper.', { selector: 'li' });
    within(dup).getByRole('button', { name: /Same as Acme 1 Ltd\./ });
    within(dup).getByRole('button', { name: /Same as Acme 1 Group/ });
    within(dup).getByRole('button', { name: 'New page' });
    const empty = screen.getByRole('article', { name: 'Empty page: Northwind 1' });
    within(empty).getByText('Its last source was removed: old-1.md.');
    for (const name of ['Proposals', 'Possible duplicates', 'Empty pages'])
      screen.getByRole('heading', { name, level: 2 });
    screen.getByText('3 waiting for you', { exact: false });
    await waitFor(() =>
      expect(within(rail).getByRole('button', { name: /^Inbox/ }).textContent).toContain('3'),
    );

    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 1');
    await user.keyboard('j');
    expect(current()?.getAttribute('aria-label')).toBe('Possible duplicate: Acme 1');
    await user.keyboard('j');
    expect(current()?.getAttribute('aria-label')).toBe('Empty page: Northwind 1');
    await user.keyboard('kk');
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 1');
  });

  it('A on a Possible duplicate is "Same as" its first candidate; R dismisses the next', async () => {
    const t = engine([], [duplicateCard(1), duplicateCard(2)]);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Possible duplicate: Acme 2' });

    await user.keyboard('a');
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')).toEqual([
        { card: 'card-1', action: 'same', entity: 'e_cand1a' },
      ]),
    );
    await screen.findByText('Same as “Acme 1 Ltd.”: 1 fact stated there');
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: 'Possible duplicate: Acme 1' })).toBeNull(),
    );

    expect(current()?.getAttribute('aria-label')).toBe('Possible duplicate: Acme 2');
    await user.keyboard('r');
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')).toEqual([
        { card: 'card-1', action: 'same', entity: 'e_cand1a' },
        { card: 'card-2', action: 'dismiss' },
      ]),
    );
    await screen.findByRole('heading', { name: 'Nothing to review' });
  });

  it('the other candidate and New page are buttons', async () => {
    const t = engine([], [duplicateCard(1), duplicateCard(2)]);
    const { user } = await openInbox(t);
    const first = await screen.findByRole('article', { name: 'Possible duplicate: Acme 1' });
    await user.click(within(first).getByRole('button', { name: /Same as Acme 1 Group/ }));
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')).toEqual([
        { card: 'card-1', action: 'same', entity: 'e_cand1b' },
      ]),
    );
    const second = await screen.findByRole('article', { name: 'Possible duplicate: Acme 2' });
    await user.click(within(second).getByRole('button', { name: 'New page' }));
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')[1]).toEqual({ card: 'card-2', action: 'new' }),
    );
    await screen.findByText('New page “Acme 1” with 1 fact');
  });

  it('A opens an Empty page in the dossier; R dismisses it', async () => {
    const t = engine([], [emptyPageCard(1)]);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Empty page: Northwind 1' });
    await user.keyboard('a');
    await waitFor(() => expect(t.inputsOf('items.dossier')).toContainEqual({ id: 'e_empty1' }));
    expect(t.inputsOf('inbox.resolveCard')).toEqual([]);
    await user.keyboard('r');
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')).toEqual([{ card: emptyPageCard(1).id, action: 'dismiss' }]),
    );
    await screen.findByText('Dismissed');
  });

  it('a stale card says why and only dismisses; a card the reader cannot decide says who can', async () => {
    const stale = duplicateCard(1, { stale: 'its source invoice-1.md was removed' });
    const locked = duplicateCard(2, { canResolve: false, scope: 'team:ops' });
    const t = engine([], [stale, locked]);
    const { user } = await openInbox(t);
    const card = await screen.findByRole('article', { name: 'Possible duplicate: Acme 1' });
    within(card).getByText(/its source invoice-1\.md was removed\. It can only be dismissed\./);
    expect(within(card).queryByRole('button', { name: /Same as/ })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'New page' })).toBeNull();
    await user.keyboard('a');
    expect(t.inputsOf('inbox.resolveCard')).toEqual([]);

    const other = screen.getByRole('article', { name: 'Possible duplicate: Acme 2' });
    within(other).getByText('Only a member of team:ops can decide this.');
    expect(within(other).queryByRole('button', { name: /Same as|New page|Dismiss/ })).toBeNull();
    await user.keyboard('jar');
    expect(t.inputsOf('inbox.resolveCard')).toEqual([]);

    await user.keyboard('k');
    await user.keyboard('r');
    await waitFor(() =>
      expect(t.inputsOf('inbox.resolveCard')).toEqual([{ card: 'card-1', action: 'dismiss' }]),
    );
  });

  it('filters by kind, with the count of each, and teaches when a kind is empty', async () => {
    const t = engine([proposal(1)], [duplicateCard(1), emptyPageCard(1), emptyPageCard(2)]);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Empty page: Northwind 2' });
    const filters = screen.getByRole('group', { name: 'Show' });
    expect(within(filters).getByRole('button', { name: 'Empty pages 2' }).getAttribute('aria-pressed')).toBe(
      'false',
    );

    await user.click(within(filters).getByRole('button', { name: 'Empty pages 2' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Proposal: Proposal 1' })).toBeNull());
    expect(t.inputsOf('inbox.cards')).toContainEqual({ kind: 'empty-page', offset: 0, limit: 50 });
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Empty page: Northwind 1',
      'Empty page: Northwind 2',
    ]);
    expect(current()?.getAttribute('aria-label')).toBe('Empty page: Northwind 1');

    await user.click(within(filters).getByRole('button', { name: 'Proposals 1' }));
    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
        'Proposal: Proposal 1',
      ]),
    );

    await user.click(within(filters).getByRole('button', { name: 'Possible duplicates 1' }));
    const dup = await screen.findByRole('article', { name: 'Possible duplicate: Acme 1' });
    await user.click(within(dup).getByRole('button', { name: /Dismiss/ }));
    await screen.findByRole('heading', { name: 'Nothing to review' });
    screen.getByText(/cannot tell whether a name in a source is a page you already have/);
  });

  it('says when the review cards could not load, and loads them on Try again', async () => {
    const t = engine([proposal(1)], []);
    t.fail('inbox.cards', 'busy', 'The workspace is busy.');
    const { user } = await openInbox(t);
    const alert = await screen.findByRole('alert');
    within(alert).getByText('Could not load the review cards');
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });
    t.answer('inbox.cards', () => ({
      counts: { duplicate: 0, emptyPage: 1 },
      pending: 1,
      total: 1,
      offset: 0,
      cards: [emptyPageCard(5)],
    }));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('article', { name: 'Empty page: Northwind 5' });
  });
});
