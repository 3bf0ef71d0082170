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

  it('leaves the keyboard on the grid after a click: the arrows move from the clicked row, Enter opens, I indexes, Delete asks', async () => {
    const t = engine();
    const { user } = renderApp(t);
    const grid = await screen.findByRole('grid', { name: 'Files' });

    await user.click(await within(grid).findByText('note-02.md'));
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'note-02.md' });
    expect(document.activeElement).toBe(grid);

    await user.keyboard('{ArrowDown}');
    expect(grid.getAttribute('aria-activedescendant')).toBe('file-row-2');
    expect(selectedLabels(grid)).toEqual(['note-03.md']);
    await user.keyboard('{Enter}');
    await within(dossier).findByRole('heading', { name: 'note-03.md' });
    await user.keyboard('i');
    await waitFor(() => expect(t.inputsOf('files.index')).toEqual([{ ids: ['file-3'] }]));
    await user.keyboard('{Delete}');
    await screen.findByRole('alertdialog', { name: 'Remove note-03.md?' });
  });

  it('says how many files of a finished batch failed or need a password, and how many failed at rest', async () => {
    const rows = [
      ...[1, 2, 3].map((n) => fileRow(n, { state: 'indexed' as const })),
      fileRow(4, { state: 'failed' as const, reason: 'unreadable: the file is damaged' }),
    ];
    const t = engine(rows);
    renderApp(t);
    const queue = await screen.findByRole('status', { name: 'Indexing queue' });
    await waitFor(() => expect(queue.textContent).toBe('3 indexed · 0 not indexed · 1 failed'));

    const event = (fileId: string, done: number, patch: Record<string, unknown> = {}) =>
      act(() =>
        t.emit('index.progress', {
          fileId,
          label: `${fileId}.md`,
          phase: 'indexed',
          done,
          total: 4,
          ...patch,
        }),
      );
    event('file-1', 1);
    event('file-2', 2, { phase: 'failed', reason: 'unreadable: the file is damaged' });
    event('file-3', 3, { phase: 'failed', reason: 'password-protected PDF: enter its password to index it' });
    expect(queue.textContent).toContain('Indexing 3 of 4');
    event('file-4', 4);
    expect(queue.textContent).toBe('Indexed 2 of 4 · 1 failed · 1 needs a password');

    // A new batch starts counting again.
    event('file-1', 1, { total: 1 });
    expect(queue.textContent).toBe('Indexed 1 of 1');
  });

  it('fits the page a long PDF is on in its State chip, the whole of it in the tooltip', async () => {
    const t = engine();
    renderApp(t);
    const grid = await focusedGrid();
    act(() =>
      t.emit('index.progress', {
        fileId: 'file-2',
        label: 'note-02.md',
        phase: 'indexing',
        done: 0,
        total: 1,
        page: 75,
        pages: 352,
      }),
    );
    const row = within(grid).getByText('note-02.md').closest('tr') as HTMLElement;
    const chip = (await within(row).findByText(/Indexing/)).closest('.chip') as HTMLElement;
    // Too long for the column, the words ellipsize (file-table.css); the tooltip says it all.
    expect(chip.querySelector('.ellipsis')?.textContent).toBe('Indexing p. 75/352');
    expect(chip.getAttribute('title')).toContain('page 75 of 352 read');
    const added = row.querySelector('.col-at') as HTMLElement;
    expect(added.querySelector('.ellipsis')?.textContent).toBe(added.textContent);
    expect(added.getAttribute('title')).toContain(added.textContent as string);
  });

  it('says there are no files yet when Index all runs on an empty workspace', async () => {
    const t = fakeTransport(shellAnswers([]));
    t.answer('files.index', () => ({ queued: 0 }));
    const { user } = renderApp(t);
    await screen.findByRole('heading', { name: /Drop files here/ });
    await user.keyboard('{Control>}k{/Control}');
    await user.type(
      await screen.findByRole('combobox', { name: 'Search files, passages and commands' }),
      'index all',
    );
    await waitFor(() =>
      expect(screen.getByRole('option', { selected: true }).textContent).toContain('Index all files'),
    );
    await user.keyboard('{Enter}');
    await screen.findByText(
      'There are no files yet: drop files here, watch a folder, or load the sample workspace',
    );
    expect(screen.queryByText('Every file is already indexed')).toBeNull();
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
    const chip = (await within(row).findByText(/Indexing/)).closest('.chip') as HTMLElement;
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
