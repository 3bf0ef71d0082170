/** "What changed…" on the Trees screen over a fake engine: the answer, opening a changed node, errors, trees without history. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { CHANGES, COMMIT, EARLIER, TREE_ID, treeSource, treesEngine } from '../../test/trees-canned.ts';

type Engine = ReturnType<typeof treesEngine>;

async function openChanges(t: Engine = treesEngine()) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
  await screen.findByRole('treeitem', { name: 'docs' });
  await view.user.click(screen.getByRole('tab', { name: 'What changed…' }));
  return { ...view, t };
}

const sinceBox = () => screen.getByRole('textbox', { name: 'Since commit' });
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('What changed since a commit', () => {
  it('lists the changed documents and sections; a section opens in the node view, and the answer stays', async () => {
    const { t, user } = await openChanges();
    expect(t.inputsOf('trees.changes')).toEqual([]);
    expect(sinceBox()).toHaveProperty('value', '');

    await user.type(sinceBox(), 'b1946ac{Enter}');
    const table = await screen.findByRole('table', { name: 'Changed documents' });
    expect(t.inputsOf('trees.changes')).toEqual([{ tree: TREE_ID, since: 'b1946ac' }]);
    screen.getByText(
      (_, el) => el?.tagName === 'P' && el.textContent === '4 documents changed between b1946ac and 9fceb02.',
    );
    const [, ...rows] = within(table).getAllByRole('row');
    expect(rows.map((r) => cells(r))).toEqual([
      ['Modified', 'docs/refunds.md', '+3 −1'],
      ['Added', 'guides/escalation.md', '+4 −0'],
      ['Renamed', 'docs/shipping.md from docs/delivery.md', 'lines unknown'],
      ['Deleted', 'docs/faq.md', '+0 −12'],
    ]);
    expect(within(table).queryByRole('button', { name: 'docs/faq.md' })).toBeNull();

    const changed = screen.getByRole('list', { name: 'Changed sections and cards' });
    expect(
      within(changed)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Refund windowdocs/refunds.md#refund-window',
      'RULE-REF-0001 One refund per orderdocs/refunds.md#RULE-REF-0001',
    ]);
    await user.click(within(changed).getByRole('button', { name: /Refund window/ }));
    await screen.findByRole('article', { name: 'Refund window' });
    expect(screen.getByRole('tab', { name: 'Tree' }).getAttribute('aria-selected')).toBe('true');

    await user.click(screen.getByRole('tab', { name: 'What changed…' }));
    expect(sinceBox()).toHaveProperty('value', 'b1946ac');
    const again = await screen.findByRole('table', { name: 'Changed documents' });
    await user.click(within(again).getByRole('button', { name: 'guides/escalation.md' }));
    await screen.findByRole('article', { name: 'Escalations' });
  });

  it('offers the last change of the node being read as the commit to compare with', async () => {
    const t = treesEngine();
    const view = renderApp(t);
    const rail = await screen.findByRole('navigation', { name: 'Main' });
    await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
    await view.user.click(await screen.findByRole('treeitem', { name: /Refunds \(2019\)/ }));
    await screen.findByRole('article', { name: 'Refunds (2019)' });
    await view.user.click(screen.getByRole('tab', { name: 'What changed…' }));

    await view.user.click(
      screen.getByRole('button', { name: "Since this document's last change (b1946ac)" }),
    );
    await screen.findByRole('table', { name: 'Changed documents' });
    expect(t.inputsOf('trees.changes')).toEqual([{ tree: TREE_ID, since: EARLIER }]);
    expect(sinceBox()).toHaveProperty('value', EARLIER);
  });

  it('names the commit it does not know, and shows the next answer once a known one is typed', async () => {
    const { user } = await openChanges();
    await user.type(sinceBox(), 'deadbee');
    await user.click(screen.getByRole('button', { name: 'Show changes' }));

    const alert = await screen.findByRole('alert');
    within(alert).getByText('Could not compare with deadbee');
    within(alert).getByText('/home/ada/src/handbook has no commit deadbee.');
    within(alert).getByText('not-found');

    await user.clear(sinceBox());
    await user.type(sinceBox(), 'b1946ac{Enter}');
    await screen.findByRole('table', { name: 'Changed documents' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when nothing changed', async () => {
    const { user } = await openChanges();
    await user.type(sinceBox(), `${COMMIT.slice(0, 10)}{Enter}`);
    await screen.findByText(
      (_, el) => el?.tagName === 'P' && el.textContent === 'Nothing changed between 9fceb02 and 9fceb02.',
    );
    expect(screen.queryByRole('table', { name: 'Changed documents' })).toBeNull();
  });

  it('says when the answer is cut and when some older lines are missing', async () => {
    const t = treesEngine();
    t.answer('trees.changes', () => ({ ...CHANGES, nodes: [], truncated: true, linesKnown: false }));
    const { user } = await openChanges(t);
    await user.type(sinceBox(), 'b1946ac{Enter}');
    await screen.findByText(/Showing the first 100 documents\./);
    screen.getByText(/The older lines of some documents are missing/);
    expect(screen.queryByRole('list', { name: 'Changed sections and cards' })).toBeNull();
  });

  it('is not offered for a tree received from another replica, nor for a plain folder', async () => {
    const t = treesEngine([treeSource({ remote: true, createdBy: 'grace' })]);
    const view = renderApp(t);
    const rail = await screen.findByRole('navigation', { name: 'Main' });
    await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
    await screen.findByRole('treeitem', { name: 'docs' });
    const tab = screen.getByRole('tab', { name: 'What changed…' });
    expect(tab).toHaveProperty('disabled', true);
    expect(tab.getAttribute('title')).toMatch(/grace's repository stays in their clone/);
    await view.user.click(tab);
    expect(screen.getByRole('tab', { name: 'Tree' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('textbox', { name: 'Since commit' })).toBeNull();
    view.unmount();

    const folder = treesEngine([treeSource({ isGit: false, branch: null })]);
    renderApp(folder);
    const rail2 = await screen.findByRole('navigation', { name: 'Main' });
    await view.user.click(within(rail2).getByRole('button', { name: 'Trees' }));
    await screen.findByRole('treeitem', { name: 'docs' });
    const folderTab = await screen.findByRole('tab', { name: 'What changed…' });
    expect(folderTab).toHaveProperty('disabled', true);
    expect(folderTab.getAttribute('title')).toBe('A plain folder has no history to compare.');
    expect(folder.inputsOf('trees.changes')).toEqual([]);
    expect(t.inputsOf('trees.changes')).toEqual([]);
  });
});
