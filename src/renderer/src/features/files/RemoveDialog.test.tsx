/**
 * Removing files (docs/FACTS.md [K8]) in the real app shell over a fake engine: from the grid by Delete
 * or the toolbar, and from a file's dossier; what the dialog says, confirm and cancel by keyboard, the
 * result, and the engine's refusals with their reasons.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Outputs } from '#shared/api/contract.ts';
import type { FileRow } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import { fileDossier, fileRow, listFiles, shellAnswers } from '../../test/canned.ts';
import { type FakeTransport, fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

type Removed = Outputs['items.remove'];

/** A workspace of five files whose items.remove takes the row away and tells the windows, as the host does. */
function engine(answer: (row: FileRow) => Omit<Removed, 'id' | 'label'> = () => noFacts) {
  let rows = [1, 2, 3, 4, 5].map((n) => fileRow(n));
  const t: FakeTransport = fakeTransport(shellAnswers(rows));
  t.answer('files.list', (input) => listFiles(rows)(input));
  t.answer('items.dossier', (input) => {
    const row = rows.find((r) => r.id === input.id);
    if (!row) throw new AppError('not-found', `No item with id ${input.id}.`);
    return fileDossier(row);
  });
  t.answer('items.remove', (input) => {
    const row = rows.find((r) => r.id === input.id);
    if (!row) throw new AppError('not-found', `No item with id ${input.id}.`);
    const result = { id: row.id, label: row.label, ...answer(row) };
    if (result.removed) {
      rows = rows.filter((r) => r.id !== row.id);
      setTimeout(() => t.emit('files.changed', { ids: [row.id] }), 0);
    }
    return result;
  });
  return t;
}
const noFacts = { removed: true, retiredFacts: 0, emptied: [] };

async function focusedGrid() {
  const grid = await screen.findByRole('grid', { name: 'Files' });
  await within(grid).findByText('note-05.md');
  act(() => grid.focus());
  return grid;
}

const labels = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]?.textContent);

describe('Removing files', () => {
  it('names the selected files and what removing does; Esc and Cancel change nothing and give the grid its focus back', async () => {
    const t = engine();
    const { user } = renderApp(t);
    const grid = await focusedGrid();

    await user.keyboard('{ArrowDown}{ArrowDown}{Shift>}{ArrowDown}{/Shift}{Delete}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove 2 files?' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['note-02.md', 'note-03.md']);
    within(dialog).getByText(
      'Search and chat will no longer find them. Facts only they support leave their entity pages; ' +
        'facts other sources also support stay. Adding the same files again brings them back, with their facts.',
    );
    // Focus is in the dialog, on the safe choice.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(grid));

    // The toolbar's Remove… asks the same, and Cancel leaves everything as it was.
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    const again = await screen.findByRole('alertdialog', { name: 'Remove 2 files?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(grid));
    expect(t.inputsOf('items.remove')).toEqual([]);
    expect(labels(grid)).toHaveLength(5);
  });

  it('removes on Tab to Remove and Enter, says how many facts stopped being current and which pages were left empty, and the rows leave the grid', async () => {
    const t = engine((row) => ({
      removed: true,
      retiredFacts: row.id === 'file-2' ? 2 : 1,
      emptied: [{ id: 'e_00000000000000000001', label: 'Acme Paper' }],
    }));
    const { user } = renderApp(t);
    const grid = await focusedGrid();

    await user.keyboard('{ArrowDown}{ArrowDown}{Shift>}{ArrowDown}{/Shift}{Delete}');
    await screen.findByRole('alertdialog', { name: 'Remove 2 files?' });
    await user.keyboard('{Tab}{Enter}');

    const result = await screen.findByRole('dialog', { name: 'Removed 2 files' });
    const status = within(result).getByRole('status');
    expect(status.textContent).toBe(
      '3 facts stopped being current.Entity pages left with no current fact: Acme Paper.',
    );
    expect(
      t
        .inputsOf('items.remove')
        .map((i) => i.id)
        .sort(),
    ).toEqual(['file-2', 'file-3']);

    // Done has the focus: Enter closes, and the grid has it back, without the removed rows.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(grid));
    await waitFor(() => expect(labels(grid)).toEqual(['note-01.md', 'note-04.md', 'note-05.md']));
    screen.getByRole('button', { name: 'Index selected' });
  });

  it('starts on Cancel, so Delete then Enter removes nothing', async () => {
    const t = engine();
    const { user } = renderApp(t);
    const grid = await focusedGrid();

    await user.keyboard('{ArrowDown}{Delete}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove note-01.md?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(grid));
    expect(t.inputsOf('items.remove')).toEqual([]);
    expect(labels(grid)).toHaveLength(5);
  });

  it('names each file the engine refused and why, and removes the others', async () => {
    const t = engine((row) => {
      if (row.id === 'file-2')
        throw new AppError(
          'validation-failed',
          'note-02.md comes from a connected repository: delete it there (or disconnect the repository); the tree follows.',
        );
      return noFacts;
    });
    const { user } = renderApp(t);
    await focusedGrid();

    await user.keyboard('{ArrowDown}{Shift>}{ArrowDown}{/Shift}');
    await user.click(screen.getByRole('button', { name: 'Remove…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove 2 files?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    const result = await screen.findByRole('dialog', { name: 'Removed 1 of 2 files' });
    within(result).getByText('No fact stopped being current.');
    const alert = within(result).getByRole('alert');
    within(alert).getByText('Could not remove note-02.md');
    within(alert).getByText(/note-02\.md comes from a connected repository: delete it there/);
    within(alert).getByText('validation-failed');
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("offers Remove… in a file's dossier, with the same dialog, and closes the dossier once it is removed", async () => {
    const t = engine();
    const { user } = renderApp(t);
    await focusedGrid();

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-02.md' });
    const button = within(dossier).getByRole('button', { name: 'Remove…' });
    await user.click(button);
    // Esc cancels: the dossier stays, and Remove… has the focus again.
    await screen.findByRole('alertdialog', { name: 'Remove note-02.md?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(screen.getByRole('complementary', { name: 'Dossier' })).toBe(dossier);

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove note-02.md?' });
    within(dialog).getByText(/Search and chat will no longer find it\. Facts only it supports/);
    within(dialog).getByText(/Adding the same file again brings it back, with its facts\./);
    await user.keyboard('{Tab}{Enter}');
    const result = await screen.findByRole('dialog', { name: 'Removed note-02.md' });
    within(result).getByText('No fact stopped being current.');
    expect(t.inputsOf('items.remove')).toEqual([{ id: 'file-2' }]);
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Dossier' })).toBeNull());
  });

  it("does not offer it for a connected repository's document", async () => {
    const t = engine();
    t.answer('items.dossier', (input) => {
      const d = fileDossier(fileRow(Number(String(input.id).slice(5))));
      return { ...d, item: { ...d.item, origin: { ...d.item.origin, source: 'tree' } } };
    });
    const { user } = renderApp(t);
    await focusedGrid();
    await user.keyboard('{ArrowDown}{Enter}');
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-01.md' });
    await within(dossier).findByText('The text of note-01.md.');
    expect(within(dossier).queryByRole('button', { name: 'Remove…' })).toBeNull();
  });
});
