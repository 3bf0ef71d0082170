/** The command palette in the real app shell over a fake engine: open, find, run, close, by keyboard. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchHit } from '#shared/types.ts';
import { fileDossier, fileRow, shellAnswers } from '../../test/canned.ts';
import { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';

const ROWS = [fileRow(1, { label: 'trace-notes.md' }), fileRow(2, { label: 'roadmap.md' })];

const HIT: SearchHit = {
  id: 'section-9',
  label: 'Trace trees',
  storageKind: 'section',
  kind: 'section',
  score: 0.03,
  body: 'Trace trees record the hot loops of a program.',
  scope: 'org',
  citation: null,
};

function engine() {
  const t = fakeTransport(shellAnswers(ROWS));
  t.answer('search.query', () => ({ semantic: false, hits: [HIT] }));
  t.answer('files.index', () => ({ queued: 2 }));
  t.answer('items.dossier', (input) => fileDossier(ROWS.find((r) => r.id === input.id) ?? fileRow(9)));
  return t;
}

const palette = () => screen.queryByRole('dialog', { name: 'Search and commands' });
const box = () => screen.getByRole('combobox', { name: 'Search files, passages and commands' });
const activeOption = () =>
  screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');

async function ready() {
  const view = renderApp(engine());
  await screen.findByRole('heading', { name: 'Files', level: 1 });
  return view;
}

describe('Command palette', () => {
  it('opens with Ctrl+K or Cmd+K, focused on its box, and closes with Esc', async () => {
    const { user } = await ready();
    expect(palette()).toBeNull();

    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('dialog', { name: 'Search and commands' });
    await waitFor(() => expect(document.activeElement).toBe(box()));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(palette()).toBeNull());

    await user.keyboard('{Meta>}k{/Meta}');
    await screen.findByRole('dialog', { name: 'Search and commands' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(palette()).toBeNull());
  });

  it('gives the focus back to where it was when closed with Esc', async () => {
    const { user } = await ready();
    const rail = screen.getByRole('navigation', { name: 'Main' });
    const inbox = within(rail).getByRole('button', { name: /^Inbox/ });
    inbox.focus();
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('dialog', { name: 'Search and commands' });
    await waitFor(() => expect(document.activeElement).toBe(box()));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(palette()).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(inbox));
  });

  it('lists the commands before anything is typed; the arrows move the active one', async () => {
    const { user } = await ready();
    await user.keyboard('{Control>}k{/Control}');
    const list = await screen.findByRole('listbox', { name: 'Results' });
    within(list).getByRole('option', { name: /Index all files/ });
    within(list).getByRole('option', { name: /Go to Settings/ });
    expect(activeOption()?.textContent).toContain('Index all files');

    await user.keyboard('{ArrowDown}');
    expect(activeOption()?.textContent).toContain('Watch a folder…');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(activeOption()?.textContent).toContain('Download the semantic search model');
  });

  it('finds files by name and passages by text as you type, and Enter opens the active one', async () => {
    const { user } = await ready();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(box(), 'trace');

    const file = await screen.findByRole('option', { name: /trace-notes\.md/ });
    const passage = await screen.findByRole('option', { name: /Trace trees/ });
    within(passage).getByText('Trace', { selector: 'mark' });
    expect(file.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Enter}');
    await waitFor(() => expect(palette()).toBeNull());
    const dossier = await screen.findByRole('complementary', { name: 'Dossier' });
    await within(dossier).findByRole('heading', { name: 'trace-notes.md' });
  });

  it('finds an entity by name or alias and opens its page', async () => {
    const t = engine();
    t.answer('entities.list', (input) => ({
      entities: 'metlife insurer'.includes(input.q?.toLowerCase() ?? '-')
        ? [
            {
              id: 'entity-7',
              label: 'MetLife',
              storageKind: 'entity' as const,
              kind: 'organization',
              scope: 'org',
              aliases: ['MetLife', 'Metropolitan Life'],
              mentions: 3,
              sources: 2,
              sameAs: 0,
              updatedAt: '2026-12-01T00:00:00.000Z',
            },
          ]
        : [],
    }));
    const { user } = renderApp(t);
    await screen.findByRole('heading', { name: 'Files', level: 1 });
    await user.keyboard('{Control>}k{/Control}');
    await user.type(box(), 'metlife');
    const option = await screen.findByRole('option', {
      name: /MetLife.*organization · 3 mentions · Metropolitan Life/,
    });
    await waitFor(() => expect(option.getAttribute('aria-selected')).toBe('true'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(palette()).toBeNull());
    await waitFor(() => expect(t.inputsOf('items.dossier').at(-1)).toMatchObject({ id: 'entity-7' }));
  });

  it('runs a command with Enter and closes', async () => {
    const { user } = await ready();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(box(), 'settings');
    await waitFor(() => expect(activeOption()?.textContent).toContain('Go to Settings'));

    await user.keyboard('{Enter}');
    await waitFor(() => expect(palette()).toBeNull());
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
  });

  it('runs a command that calls the engine, and tells what it did', async () => {
    const { user } = await ready();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(box(), 'reindex');
    await waitFor(() => expect(activeOption()?.textContent).toContain('Index all files'));
    await user.keyboard('{Enter}');
    await screen.findByText('Queued 2 files for indexing');
  });

  it('says when nothing matches, and still works when the searches fail', async () => {
    const t = engine();
    t.fail('files.list', 'busy', 'The workspace is busy.');
    t.fail('search.query', 'busy', 'The workspace is busy.');
    const { user } = renderApp(t);
    await user.keyboard('{Control>}k{/Control}');
    await user.type(box(), 'zzzz');
    await screen.findByText('Nothing found for “zzzz”');
    expect(screen.queryAllByRole('option')).toEqual([]);
  });

  it('opens from the search box in the top bar', async () => {
    const { user } = await ready();
    await user.click(screen.getByRole('button', { name: /Search files, passages and commands/ }));
    await screen.findByRole('dialog', { name: 'Search and commands' });
  });
});
