/** The Trees screen in the real app shell over a fake engine: connecting, the status line, several repositories, errors. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { fakeTransport } from '../../test/fake-transport.ts';
import { renderApp } from '../../test/render-app.tsx';
import { COMMIT, TREE_ID, treeOf, treeSource, treesEngine } from '../../test/trees-canned.ts';

type Source = ReturnType<typeof treeSource>;

async function openTrees(t: ReturnType<typeof fakeTransport>) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
  await screen.findByRole('heading', { name: 'Trees', level: 1 });
  return view;
}

/** An engine whose list of repositories follows connect and disconnect. */
function liveEngine(initial: Source[]) {
  const t = treesEngine();
  let sources = initial;
  t.answer('trees.list', () => ({ trees: sources }));
  const set = (next: Source[]) => {
    sources = next;
  };
  return { t, set };
}

describe('Trees screen', () => {
  it('explains what a tree is when nothing is connected, and connects a repository with its branch and scope', async () => {
    const { t, set } = liveEngine([]);
    t.answer('trees.connect', () => {
      const s = treeSource();
      set([s]);
      return s;
    });
    const { user } = await openTrees(t);

    await screen.findByRole('heading', { name: 'No repository connected' });
    screen.getByText(/A tree is a Markdown repository indexed as its folders, documents and headings/);
    expect(t.inputsOf('trees.tree')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Connect a repository…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a repository' });
    await user.type(within(dialog).getByRole('textbox', { name: /Folder path/ }), '/home/ada/src/handbook');
    await user.type(within(dialog).getByRole('textbox', { name: /Branch/ }), 'main');
    expect((within(dialog).getByRole('combobox', { name: /Scope/ }) as HTMLInputElement).value).toBe('org');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));

    await waitFor(() =>
      expect(t.inputsOf('trees.connect')).toEqual([
        { folder: '/home/ada/src/handbook', branch: 'main', scope: 'org' },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByRole('treeitem', { name: 'docs' });
    screen.getByText('Ready');
    screen.getByText(COMMIT.slice(0, 7));
    const counts = screen.getByText(
      /^8 documents · 3 folders · 2 sections · 1 card · 6 links · 1 broken link/,
    );
    // Which files were left out, and why, is named where they are counted.
    expect(counts.getAttribute('title')).toBe(
      'Left out of the tree:\nrestricted/salaries.md (under a restricted/ folder)\nscratch/notes.md (under scratch/ at the root)',
    );
    await screen.findByText(/Connected handbook: 8 documents/);
  });

  it('shows a build that failed on connecting, with its reason and a rebuild', async () => {
    const { t, set } = liveEngine([]);
    const failed = treeSource({
      state: 'failed',
      indexedCommit: null,
      error: 'git cat-file failed: bad object 9fceb02',
      counts: { documents: 0, folders: 0, sections: 0, cards: 0, links: 0, broken: 0, skipped: 0 },
      leftOut: [],
    });
    t.answer('trees.connect', () => {
      set([failed]);
      return failed;
    });
    const { user } = await openTrees(t);

    await user.click(await screen.findByRole('button', { name: 'Connect a repository…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a repository' });
    await user.type(within(dialog).getByRole('textbox', { name: /Folder path/ }), '/home/ada/src/handbook');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(t.inputsOf('trees.connect')).toEqual([{ folder: '/home/ada/src/handbook', scope: 'org' }]);

    const alert = await screen.findByText('The tree of /home/ada/src/handbook could not be built');
    within(alert.closest('[role="alert"]') as HTMLElement).getByText(
      'git cat-file failed: bad object 9fceb02',
    );
    screen.getByText('Failed');
    expect(t.inputsOf('trees.tree')).toEqual([]);

    set([treeSource()]);
    await user.click(screen.getAllByRole('button', { name: 'Rebuild' })[0] as HTMLElement);
    await waitFor(() => expect(t.inputsOf('trees.rebuild')).toEqual([{ tree: TREE_ID }]));
    await screen.findByRole('treeitem', { name: 'docs' });
  });

  it('keeps the dialog open with the reason when connecting fails', async () => {
    const { t } = liveEngine([]);
    t.fail('trees.connect', 'not-found', '/home/ada/nope is not a folder.');
    const { user } = await openTrees(t);

    await user.click(await screen.findByRole('button', { name: 'Connect a repository…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a repository' });
    await user.type(within(dialog).getByRole('textbox', { name: /Folder path/ }), '/home/ada/nope');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));

    const alert = await within(dialog).findByRole('alert');
    within(alert).getByText('Could not connect /home/ada/nope');
    within(alert).getByText('/home/ada/nope is not a folder.');
  });

  it('rebuilds, and disconnects after a confirmation', async () => {
    const { t, set } = liveEngine([treeSource()]);
    t.answer('trees.disconnect', (input) => {
      set([]);
      return { disconnected: input.tree ?? '' };
    });
    const { user } = await openTrees(t);
    await screen.findByRole('treeitem', { name: 'docs' });

    await user.click(screen.getByRole('button', { name: 'Rebuild' }));
    await waitFor(() => expect(t.inputsOf('trees.rebuild')).toEqual([{ tree: TREE_ID }]));
    await screen.findByText(/Rebuilt handbook: 8 documents/);

    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Disconnect handbook?' });
    within(confirm).getByText(/Its documents stay files of the workspace/);
    expect(t.inputsOf('trees.disconnect')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));

    await waitFor(() => expect(t.inputsOf('trees.disconnect')).toEqual([{ tree: TREE_ID }]));
    await screen.findByRole('heading', { name: 'No repository connected' });
  });

  it('switches between several repositories; one not built yet is not read', async () => {
    const other = treeSource({
      id: 'tree_77aa00bb11cc22dd',
      root: '/home/ada/src/runbooks',
      branch: 'trunk',
      state: 'not-built',
      indexedCommit: null,
      attemptedCommit: null,
    });
    const { t } = liveEngine([treeSource(), other]);
    const { user } = await openTrees(t);
    await screen.findByRole('treeitem', { name: 'docs' });

    const picker = screen.getByRole('combobox', { name: 'Repository' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['handbook (main)', 'runbooks (trunk)']);
    await user.selectOptions(picker, 'tree_77aa00bb11cc22dd');
    await screen.findByRole('heading', { name: 'The tree is not built yet' });
    screen.getByText('Not built');
    expect(t.inputsOf('trees.tree').every((i) => i.tree === TREE_ID)).toBe(true);
  });

  it('shows why the repositories or the tree could not load, and loads them on Try again', async () => {
    const { t } = liveEngine([treeSource()]);
    t.fail('trees.list', 'engine-unavailable', 'Cannot reach Org Brain.');
    t.fail('trees.tree', 'conflict', 'The tree of /home/ada/src/handbook is not built yet (indexing).');
    const { user } = await openTrees(t);

    let alert = await screen.findByRole('alert');
    within(alert).getByText('Could not load the connected repositories');
    within(alert).getByText('engine-unavailable');
    t.answer('trees.list', () => ({ trees: [treeSource()] }));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    alert = await screen.findByRole('alert');
    within(alert).getByText('Could not load the tree');
    within(alert).getByText('The tree of /home/ada/src/handbook is not built yet (indexing).');
    t.answer('trees.tree', treeOf);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('treeitem', { name: 'docs' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refetches when the engine says the tree changed, and shows the new build', async () => {
    const { t, set } = liveEngine([treeSource()]);
    await openTrees(t);
    await screen.findByRole('treeitem', { name: 'docs' });
    const before = t.inputsOf('trees.tree').length;

    set([treeSource({ indexedCommit: 'c0ffee15deadbeef00000000000000000000000a' })]);
    t.emit('trees.changed', { tree: TREE_ID });
    await screen.findByText('c0ffee1');
    await waitFor(() => expect(t.inputsOf('trees.tree').length).toBeGreaterThan(before));
    await screen.findByRole('treeitem', { name: 'docs' });
  });
});
