/** The Inbox in the real app shell over a fake engine: A, E, R and J/K, the empty state, errors. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { proposal, shellAnswers, status } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

/** An engine whose inbox holds `items` until they are approved or rejected. */
function engine(items: ProposalView[]) {
  let pending = [...items];
  const t = fakeTransport(shellAnswers());
  t.answer('inbox.list', () => ({ pending: pending.length, items: pending }));
  const decide = (id: string, patch: Partial<ProposalView>) => {
    const p = pending.find((x) => x.id === id);
    if (!p) throw new Error(`no proposal ${id}`);
    pending = pending.filter((x) => x.id !== id);
    return { ...p, ...patch };
  };
  t.answer('inbox.approve', (input) =>
    decide(input.id, { state: 'approved', edited: input.body !== undefined, body: input.body ?? '' }),
  );
  t.answer('inbox.reject', (input) => decide(input.id, { state: 'rejected', rejectReason: input.reason }));
  return t;
}

const THREE = [1, 2, 3].map((n) => proposal(n));

async function openInbox(t: ReturnType<typeof engine>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: /^Inbox/ }));
  await screen.findByRole('heading', { name: 'Inbox', level: 1 });
  return view;
}

const current = () => screen.getAllByRole('article').find((a) => a.getAttribute('aria-current') === 'true');

describe('Inbox', () => {
  it('moves between proposals with J and K', async () => {
    const { user } = await openInbox(engine(THREE));
    await screen.findByRole('article', { name: 'Proposal: Proposal 3' });
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 1');

    await user.keyboard('j');
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 2');
    await user.keyboard('jj');
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 3');
    await user.keyboard('k');
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 2');
  });

  it('approves the current proposal with A', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });

    await user.keyboard('ja');
    await waitFor(() => expect(t.inputsOf('inbox.approve')).toEqual([{ id: 'proposal-2' }]));
    await screen.findByText('Approved: “Proposal 2” is now in org');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Proposal: Proposal 2' })).toBeNull());
  });

  it('edits with E and approves the edit with Ctrl+Enter; Esc leaves the edit', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });

    await user.keyboard('e');
    let box = await screen.findByRole('textbox', { name: 'Edit the proposal' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    // The E that opened the edit is not typed into it, and letters typed there are text, not shortcuts.
    expect((box as HTMLTextAreaElement).value).toBe('What run 1 learned.');
    await user.keyboard(' jar');
    expect((box as HTMLTextAreaElement).value).toBe('What run 1 learned. jar');
    expect(t.inputsOf('inbox.approve')).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit the proposal' })).toBeNull());
    // Leaving the edit puts the focus back on the card's Edit button, not on the page.
    const card = screen.getByRole('article', { name: 'Proposal: Proposal 1' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(card).getByRole('button', { name: /Edit then approve/ })),
    );

    await user.keyboard('e');
    box = await screen.findByRole('textbox', { name: 'Edit the proposal' });
    await user.clear(box);
    await user.type(box, 'Just a rule');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(t.inputsOf('inbox.approve')).toEqual([{ id: 'proposal-1', body: 'Just a rule' }]),
    );
    await screen.findByText('Approved with your edit: “Proposal 1” is now in org');
  });

  it('rejects with R, only with a reason', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });

    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: 'Reject this proposal?' });
    const reject = within(dialog).getByRole('button', { name: 'Reject' });
    expect(reject).toHaveProperty('disabled', true);
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    await waitFor(() => expect(document.activeElement).toBe(reason));
    // The R that opened the dialog is not typed into the reason box it focuses.
    expect((reason as HTMLTextAreaElement).value).toBe('');
    await user.type(reason, 'Not a rule we keep');
    expect(reject).toHaveProperty('disabled', false);
    await user.click(reject);

    await waitFor(() =>
      expect(t.inputsOf('inbox.reject')).toEqual([{ id: 'proposal-1', reason: 'Not a rule we keep' }]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Rejected');
  });

  it('keeps J, K, A and R working after the reject dialog is closed with Esc or Cancel', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });

    await user.keyboard('r');
    await screen.findByRole('dialog', { name: 'Reject this proposal?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('j');
    expect(current()?.getAttribute('aria-label')).toBe('Proposal: Proposal 2');

    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: 'Reject this proposal?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('a');
    await waitFor(() => expect(t.inputsOf('inbox.approve')).toEqual([{ id: 'proposal-2' }]));
  });

  it('does not act on the card behind the open reject dialog', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });
    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: 'Reject this proposal?' });
    // Off the reason box (on Cancel), the letters belong to the dialog, not to the card behind it.
    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('a');
    await new Promise((r) => setTimeout(r, 50));
    expect(t.inputsOf('inbox.approve')).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Reject this proposal?' })).toBeTruthy();
  });

  it('rejects from the keyboard: R, the reason, Ctrl+Enter', async () => {
    const t = engine(THREE);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });
    await user.keyboard('r');
    const reason = await screen.findByRole('textbox', { name: 'Reason' });
    await waitFor(() => expect(document.activeElement).toBe(reason));
    await user.keyboard('Not ours{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(t.inputsOf('inbox.reject')).toEqual([{ id: 'proposal-1', reason: 'Not ours' }]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the reject dialog open with the error when rejecting fails', async () => {
    const t = engine(THREE);
    t.fail('inbox.reject', 'conflict', 'Someone decided it already.');
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Proposal 1' });

    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: 'Reject this proposal?' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Duplicate');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const alert = await within(dialog).findByRole('alert');
    within(alert).getByText('Could not reject it');
    within(alert).getByText('Someone decided it already.');
    expect(screen.getByRole('dialog', { name: 'Reject this proposal?' })).toBeTruthy();
  });

  it('says who may decide a proposal this user cannot, and A leaves it alone', async () => {
    const t = engine([proposal(1, { canDecide: false, scope: 'team:ops' })]);
    const { user } = await openInbox(t);
    const card = await screen.findByRole('article', { name: 'Proposal: Proposal 1' });
    within(card).getByText('Only a workspace admin can decide this.');
    expect(within(card).queryByRole('button', { name: /Approve/ })).toBeNull();
    await user.keyboard('a');
    expect(t.inputsOf('inbox.approve')).toEqual([]);
  });

  it('shows the empty state, and says write-back is off without a chat model', async () => {
    await openInbox(engine([]));
    await screen.findByRole('heading', { name: 'Nothing to review' });
    screen.getByText(
      'Write-back is off: no chat model is configured. Runs wait until a chat model is set in Settings.',
    );
    screen.getByText('0 waiting for you', { exact: false });
  });

  it('shows why the inbox could not load, and loads it on Try again', async () => {
    const t = engine(THREE);
    t.answer('status.get', () => status({ chatModel: { status: 'on', reason: 'configured', model: 'm' } }));
    t.fail('inbox.list', 'busy', 'The workspace is busy.');
    const { user } = await openInbox(t);
    const alert = await screen.findByRole('alert');
    within(alert).getByText('Could not load the inbox');
    within(alert).getByText('The workspace is busy.');
    expect(screen.queryByText(/Write-back is off/)).toBeNull();

    t.answer('inbox.list', () => ({ pending: 1, items: [proposal(7)] }));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('article', { name: 'Proposal: Proposal 7' });
  });

  it('asks before approving a sensitive proposal as it is, starting on Cancel; an approved edit is not asked about', async () => {
    const secret = proposal(1, {
      label: 'Office wifi password',
      body: 'The office wifi password is hunter2.',
      sensitive: true,
      detected: [{ kind: 'password', sample: 'hun…' }],
    });
    const t = engine([secret, proposal(2, { sensitive: true, detected: [] })]);
    const { user } = await openInbox(t);
    await screen.findByRole('article', { name: 'Proposal: Office wifi password' });

    await user.keyboard('a');
    const ask = await screen.findByRole('alertdialog', { name: 'Approve a sensitive memory?' });
    within(ask).getByText(
      /It holds password \(hun…\)\. Once approved, “Office wifi password” is read by everyone who can read org/,
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Cancel' })),
    );
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(t.inputsOf('inbox.approve')).toEqual([]);

    await user.click(within(current() as HTMLElement).getByRole('button', { name: /^Approve/ }));
    await user.click(await screen.findByRole('button', { name: 'Approve as it is' }));
    await waitFor(() =>
      expect(t.inputsOf('inbox.approve')).toEqual([{ id: 'proposal-1', confirmSensitive: true }]),
    );

    // The next one, sensitive too: edited, then approved with Ctrl+Enter, without being asked.
    await screen.findByRole('article', { name: 'Proposal: Proposal 2' });
    await user.keyboard('e');
    const box = await screen.findByRole('textbox', { name: 'Edit the proposal' });
    await user.clear(box);
    await user.type(box, 'The wifi password is in the office safe.{Control>}{Enter}{/Control}');
    await waitFor(() => expect(t.inputsOf('inbox.approve')).toHaveLength(2));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
