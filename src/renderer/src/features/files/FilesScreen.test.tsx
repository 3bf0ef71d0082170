/** The Files screen in the real app shell over a fake engine: the grid by keyboard, empty states, errors. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fileDossier, fileRow, listFiles, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const ROWS = [1, 2, 3, 4, 5].map((n) => fileRow(n));

function engine(rows = ROWS) {
  const t = fakeTransport(shellAnswers(rows));
  t.answer('files.index', (input) => ({ queued: input.ids?.length ?? rows.length }));
  t.answer('items.dossier', (input) => {
    const row = rows.find((r) => r.id === input.id);
    if (!row) throw new Error(`no row ${input.id}`);
    return fileDossier(row);
  });
  return t;
}

async function focusedGrid() {
  const grid = await screen.findByRole('grid', { name: 'Files' });
  await within(grid).findByText('note-05.md');
  act(() => grid.focus());
  return grid;
}

const selectedLabels = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('row')
    .filter((r) => r.getAttribute('aria-selected') === 'true')
    .map((r) => within(r).getAllByRole('cell')[0]?.textContent);

describe('Files screen', () => {
  it('moves the keyboard cursor with the arrows, extends it with Shift and indexes the selection with I', async () => {
    const t = engine();
    const { user } = renderApp(t);
    const grid = await focusedGrid();

    await user.keyboard('{ArrowDown}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-row-0');
    expect(selectedLabels(grid)).toEqual(['note-01.md']);

    await user.keyboard('{ArrowDown}{ArrowDown}{Shift>}{ArrowUp}{/Shift}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-row-1');
    expect(selectedLabels(grid)).toEqual(['note-02.md', 'note-03.md']);
    await screen.findByRole('button', { name: 'Index selected (2)' });

    await user.keyboard('i');
    await waitFor(() => expect(t.inputsOf('files.index')).toEqual([{ ids: ['file-2', 'file-3'] }]));
    await screen.findByText('Queued 2 files for indexing');
  });

  it('selects everything with Ctrl+A, toggles the cursor row with Space, and jumps with Home and End', async () => {
    const { user } = renderApp(engine());
    const grid = await focusedGrid();

    await user.keyboard('{Control>}a{/Control}');
    expect(selectedLabels(grid)).toHaveLength(5);
    await user.keyboard(' ');
    expect(selectedLabels(grid)).toEqual(['note-01.md', 'note-02.md', 'note-03.md', 'note-04.md']);

    await user.keyboard('{Home}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-row-0');
    await user.keyboard('{Shift>}{End}{/Shift}');
    expect(selectedLabels(grid)).toHaveLength(5);
    await screen.findByRole('button', { name: 'Index selected (5)' });
  });

  it('opens the row under the cursor in the dossier with Enter, follows the cursor, and closes with Esc', async () => {
    const t = engine();
    const { user } = renderApp(t);
    await focusedGrid();

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-02.md' });
    await within(dossier).findByText('The text of note-02.md.');

    // The open dossier follows the keyboard cursor.
    await user.keyboard('{ArrowDown}');
    await within(dossier).findByRole('heading', { name: 'note-03.md' });

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Dossier' })).toBeNull());
  });

  it('says when indexing the selection fails, and keeps the error until it is dismissed', async () => {
    const t = engine();
    t.fail('files.index', 'busy', 'The workspace is busy.');
    const { user } = renderApp(t);
    await focusedGrid();

    await user.keyboard('{ArrowDown}i');
    const notice = await screen.findByText('Could not index the selection: The workspace is busy.');
    await user.click(within(notice.parentElement as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/Could not index the selection/)).toBeNull());
  });

  it('offers the first steps on an empty workspace and reports what the sample added', async () => {
    const t = fakeTransport(shellAnswers([]));
    t.answer('sample.load', () => ({
      added: [{ id: 'file-1', label: 'handbook.md', path: 'sample/handbook.md' }],
      unchanged: [],
      refused: [],
      index: { queued: 1 },
    }));
    const { user } = renderApp(t);

    await screen.findByRole('heading', {
      name: 'Drop files here, watch a folder, or load the sample workspace',
    });
    expect(screen.queryByRole('grid', { name: 'Files' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Load sample workspace' }));

    const report = await screen.findByRole('dialog', { name: 'Added 1 file' });
    within(report).getByText('sample/handbook.md');
    within(report).getByText('· indexing starts automatically');
    await user.click(within(report).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the page a PDF being indexed is on, in its row and in the status bar ([O4] in docs/OCR.md)', async () => {
    const t = engine();
    renderApp(t);
    const grid = await focusedGrid();
    const event = { fileId: 'file-2', label: 'note-02.md', done: 0, total: 1 } as const;
    act(() => t.emit('index.progress', { ...event, phase: 'indexing', page: 3, pages: 12 }));
    const row = within(grid).getByText('note-02.md').closest('tr') as HTMLElement;
    const chip = await within(row).findByText(/Indexing/);
    expect(chip.textContent).toBe('Indexing p. 3/12');
    expect(chip.getAttribute('title')).toContain('page 3 of 12 read');
    const queue = screen.getByRole('status', { name: 'Indexing queue' });
    expect(queue.textContent).toContain('note-02.md, page 3 of 12');
    act(() => t.emit('index.progress', { ...event, phase: 'indexed', done: 1, sections: 12 }));
    await waitFor(() => expect(within(row).getByText('Indexed')).toBeTruthy());
    expect(row.textContent).not.toContain('p. 3/12');
  });

  it('says when no file matches the filters, and clears them', async () => {
    const { user } = renderApp(engine());
    await focusedGrid();

    await user.type(screen.getByRole('searchbox', { name: 'Find files by name' }), 'nothing-like-this');
    await screen.findByRole('heading', { name: 'No files match' });
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await within(await screen.findByRole('grid', { name: 'Files' })).findByText('note-01.md');
  });

  it('shows why the list could not load, and loads it on Try again', async () => {
    const t = engine();
    t.fail('files.list', 'engine-unavailable', 'Cannot reach Org Brain.');
    const { user } = renderApp(t);

    const alert = await screen.findByRole('alert');
    within(alert).getByText('Could not load the file list');
    within(alert).getByText('Cannot reach Org Brain.');
    within(alert).getByText('engine-unavailable');

    t.answer('files.list', listFiles(ROWS));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await within(await screen.findByRole('grid', { name: 'Files' })).findByText('note-01.md');
    expect(screen.queryByText('Could not load the file list')).toBeNull();
  });
});
