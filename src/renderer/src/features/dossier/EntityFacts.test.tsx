/** An entity's facts in the dossier over a fake engine: current facts with citations, history, retire, add. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Outputs } from '#shared/api/contract.ts';
import { type AppActions, AppContext } from '../../app/app-context.ts';
import { installTransport } from '../../lib/api.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { EntityFacts } from './EntityFacts.tsx';

type Fact = Outputs['facts.list']['facts'][number];
const ENTITY = 'e_0123456789abcdef0123';
const AT = '2026-03-10T09:00:00.000Z';

function fact(id: string, statement: string, patch: Partial<Fact> = {}): Fact {
  return {
    id: `${ENTITY}.${id}`,
    entity: ENTITY,
    statement,
    attribute: null,
    validAt: '2026-03-10',
    status: 'current',
    reason: null,
    supersededBy: null,
    retiredAt: null,
    citations: [
      {
        item: {
          id: 'f_00000000000000000003',
          label: 'inv3.md',
          storageKind: 'file',
          kind: 'file',
          scope: 'org',
        },
        citation: null,
        quote: 'Price per box: EUR 12',
        span: { start: 40, end: 61 },
        validAt: '2026-03-10',
        origin: { actor: 'agent:claude/user:ada', source: 'mcp', run: null, at: AT },
        source: { id: 'f_00000000000000000003', label: 'inv3.md', versions: 2 },
      },
    ],
    origin: { actor: 'agent:claude/user:ada', source: 'mcp', run: null, at: AT },
    ...patch,
  };
}

function setup(facts: Fact[]) {
  const t = fakeTransport({ 'facts.list': () => ({ entity: ENTITY, facts }) });
  installTransport(t);
  const actions = { openDossier: vi.fn(), notify: vi.fn() } as unknown as AppActions;
  const user = userEvent.setup();
  render(
    <AppContext.Provider value={actions}>
      <EntityFacts entity={ENTITY} />
    </AppContext.Provider>,
  );
  return { t, actions, user };
}

describe('EntityFacts', () => {
  const current = fact('aaaaaaaaaaaa', 'A box of paper costs EUR 12.', { attribute: 'price' });
  const old = fact('bbbbbbbbbbbb', 'A box of paper costs EUR 10.', {
    attribute: 'price',
    status: 'retired',
    reason: 'superseded',
    supersededBy: current.id,
    validAt: '2026-01-10',
  });

  it('shows current facts with their citations; a citation opens its range; history shows what replaced a fact', async () => {
    const { actions, user } = setup([current, old]);
    const list = await screen.findByRole('list', { name: 'Facts' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .filter((li) => li.className.includes('entity__fact')),
    ).toHaveLength(1);
    expect(within(list).getByText('A box of paper costs EUR 12.')).toBeTruthy();
    // Grouped by what they give: the price group is headed.
    expect(within(list).getByRole('heading', { name: 'price' })).toBeTruthy();
    await user.click(within(list).getByRole('button', { name: 'Open the citation in inv3.md' }));
    expect(actions.openDossier).toHaveBeenCalledWith('f_00000000000000000003', 'citation', {
      start: 40,
      end: 61,
    });

    await user.click(within(list).getByRole('button', { name: '2 versions' }));
    expect(actions.openDossier).toHaveBeenLastCalledWith('f_00000000000000000003', 'select');

    await user.click(screen.getByRole('button', { name: 'Show history (1)' }));
    expect(screen.getByText('A box of paper costs EUR 10.')).toBeTruthy();
    expect(screen.getByText('replaced by "A box of paper costs EUR 12."')).toBeTruthy();
  });

  it('retires a fact after a confirmation', async () => {
    const { t, user } = setup([current]);
    t.answer('facts.retire', () => ({ fact: { ...current, status: 'retired', reason: 'retired' } }));
    await user.click(
      await screen.findByRole('button', { name: 'Retire the fact "A box of paper costs EUR 12."' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Retire this fact?' });
    expect(t.inputsOf('facts.retire')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }));
    await vi.waitFor(() => expect(t.inputsOf('facts.retire')).toEqual([{ fact: current.id }]));
  });

  it('adds a fact with its citation, and says why when the engine refuses', async () => {
    const { t, user } = setup([]);
    expect(await screen.findByText('No facts about it yet.')).toBeTruthy();
    t.fail('facts.state', 'validation-failed', "The quote does not occur in f_1's text.");
    await user.click(screen.getByRole('button', { name: 'Add a fact' }));
    const form = screen.getByRole('form', { name: 'Add a fact' });
    await user.type(within(form).getByLabelText('Statement'), 'Acme supplies paper.');
    await user.type(within(form).getByLabelText('Source item id'), 'f_1');
    await user.type(within(form).getByLabelText('The exact words in the source'), 'supplies paper');
    await user.click(within(form).getByRole('button', { name: 'Add fact' }));
    expect(await within(form).findByText(/does not occur/)).toBeTruthy();
    expect(t.inputsOf('facts.state')).toEqual([
      { entity: ENTITY, statement: 'Acme supplies paper.', item_id: 'f_1', quote: 'supplies paper' },
    ]);
  });

  it('edits a fact: the new wording is stated with the same citation and the old one retired', async () => {
    const { t, user } = setup([current]);
    const edited = fact('cccccccccccc', 'A box of paper costs EUR 12.50.', { attribute: 'price' });
    t.answer('facts.state', () => ({
      fact: edited,
      entity: { id: ENTITY, label: 'Acme', storageKind: 'entity', kind: 'company', scope: 'org' },
      edge: { id: 'x', type: 'FACT', from: 'f_00000000000000000003', to: ENTITY, props: {} },
    }));
    t.answer('facts.retire', () => ({ fact: { ...current, status: 'retired', reason: 'retired' } }));
    await user.click(
      await screen.findByRole('button', { name: 'Edit the fact "A box of paper costs EUR 12."' }),
    );
    const form = screen.getByRole('form', { name: 'Edit the fact' });
    expect((within(form).getByLabelText('Source item id') as HTMLInputElement).value).toBe(
      'f_00000000000000000003',
    );
    const statement = within(form).getByLabelText('Statement');
    await user.clear(statement);
    await user.type(statement, 'A box of paper costs EUR 12.50.');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(t.inputsOf('facts.retire')).toEqual([{ fact: current.id }]));
    expect(t.inputsOf('facts.state')).toEqual([
      {
        entity: ENTITY,
        statement: 'A box of paper costs EUR 12.50.',
        item_id: 'f_00000000000000000003',
        quote: 'Price per box: EUR 12',
        attribute: 'price',
        valid_at: '2026-03-10',
      },
    ]);
    await vi.waitFor(() => expect(screen.queryByRole('form', { name: 'Edit the fact' })).toBeNull());
  });
});
