/** The node pane, the broken links and the palette's node lookup over a fake engine. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { readOf, TREE_ID, treesEngine } from '../../test/trees-canned.ts';

type Engine = ReturnType<typeof treesEngine>;

async function openTrees(t: Engine = treesEngine()) {
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
  await screen.findByRole('treeitem', { name: 'docs' });
  return { ...view, t };
}

const item = (name: string) => screen.getByRole('treeitem', { name });
const toggle = (name: string) => item(name).querySelector('[data-toggle]') as HTMLElement;
const numbers = (text: HTMLElement) =>
  Array.from(text.querySelectorAll('.node-text__no')).map((n) => Number(n.textContent));

/** Opens docs/refunds.md (expanding docs first). */
async function openRefunds(user: Awaited<ReturnType<typeof openTrees>>['user']) {
  await user.click(toggle('docs'));
  await user.click(await screen.findByRole('treeitem', { name: 'Refund policy' }));
  return screen.findByRole('article', { name: 'Refund policy' });
}

describe('Node pane', () => {
  it('reads a section: breadcrumb, last change, lines numbered from the citation’s first line, as text', async () => {
    const { t, user } = await openTrees();
    await user.click(toggle('docs'));
    await screen.findByRole('treeitem', { name: 'Refund policy' });
    await user.click(toggle('Refund policy'));
    await user.click(await screen.findByRole('treeitem', { name: 'Refund window' }));

    const pane = await screen.findByRole('article', { name: 'Refund window' });
    expect(t.inputsOf('trees.read')).toEqual([{ tree: TREE_ID, node: 'docs/refunds.md#refund-window' }]);
    const crumbs = within(pane).getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(crumbs)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['handbook', 'docs', 'Refund policy']);
    within(pane).getByText('Changed 2026-11-03 · Fix the refund rule');
    within(pane).getByText(/docs\/refunds\.md · lines 5–9 @ 9fceb02/);

    const text = within(pane).getByRole('region', { name: 'Text of Refund window' });
    expect(text.querySelector('ol')?.getAttribute('start')).toBe('5');
    expect(numbers(text)).toEqual([5, 6, 7, 8, 9]);
    within(text).getByText('## Refund window');
    // File text is never HTML: the tag is shown, not run.
    within(text).getByText("<script>alert('not for the page')</script>");
    expect(text.querySelector('script')).toBeNull();

    const out = within(pane).getByRole('list', { name: 'Links to' });
    within(out).getByText('ADR-002 Refund window of 30 days');
    const incoming = within(pane).getByRole('list', { name: 'Linked from' });
    within(incoming).getByText('Escalations');
    await within(pane).findByText('No other page links here.');
    expect(t.inputsOf('trees.backlinks')).toEqual([
      { tree: TREE_ID, node: 'docs/refunds.md#refund-window', limit: 20 },
    ]);

    // The breadcrumb opens a folder, which has no text and no backlinks.
    await user.click(within(crumbs).getByRole('button', { name: 'docs' }));
    const folder = await screen.findByRole('article', { name: 'docs' });
    within(within(folder).getByRole('list', { name: 'Children' })).getByText('Shipping');
    expect(within(folder).queryByRole('region', { name: /^Text of/ })).toBeNull();
    expect(within(folder).queryByText('Backlinks')).toBeNull();
    expect(t.inputsOf('trees.backlinks').map((i) => i.node)).toEqual(['docs/refunds.md#refund-window']);
  });

  it('reads on from nextLine when the text is truncated', async () => {
    const { t, user } = await openTrees();
    const pane = await openRefunds(user);
    const text = within(pane).getByRole('region', { name: 'Text of Refund policy' });
    expect(numbers(text)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    within(pane).getByText('Truncated: the text goes on at line 8.');

    await user.click(within(pane).getByRole('button', { name: 'Read on' }));
    await waitFor(() => expect(numbers(text)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]));
    expect(t.inputsOf('trees.read')).toEqual([
      { tree: TREE_ID, node: 'docs/refunds.md' },
      { tree: TREE_ID, node: 'docs/refunds.md', fromLine: 8 },
    ]);
    within(text).getByText('Owner: support-leads');
    expect(within(pane).queryByRole('button', { name: 'Read on' })).toBeNull();
  });

  it('follows a backlink to the page that links here, and shows it in the tree', async () => {
    const { t, user } = await openTrees();
    const pane = await openRefunds(user);
    const backlinks = await within(pane).findByRole('list', { name: 'Backlinks' });
    expect(
      within(backlinks)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['README.md#where-to-startlink', 'guides/escalation.mdlink → docs/refunds.md#refund-window']);

    await user.click(within(backlinks).getByRole('button', { name: /guides\/escalation\.md/ }));
    const next = await screen.findByRole('article', { name: 'Escalations' });
    expect(t.inputsOf('trees.read').map((i) => i.node)).toEqual(['docs/refunds.md', 'guides/escalation.md']);
    within(next).getByRole('region', { name: 'Text of Escalations' });
    // The tree opens the way to it.
    const row = await screen.findByRole('treeitem', { name: 'Escalations' });
    expect(item('guides').getAttribute('aria-expanded')).toBe('true');
    expect(row.getAttribute('aria-selected')).toBe('true');
  });

  it('pages the backlinks with their nextOffset', async () => {
    const t = treesEngine();
    t.answer('trees.backlinks', (input) => {
      const all = Array.from({ length: 25 }, (_, i) => ({
        node: `guides/case-${String(i + 1).padStart(2, '0')}.md`,
        target: 'docs/refunds.md',
        linkKind: 'link',
      }));
      const offset = input.offset ?? 0;
      const items = all.slice(offset, offset + (input.limit ?? 20));
      const next = offset + items.length;
      return { tree: TREE_ID, commit: 'c', items, total: 25, offset, nextOffset: next < 25 ? next : null };
    });
    const { user } = await openTrees(t);
    const pane = await openRefunds(user);
    const list = await within(pane).findByRole('list', { name: 'Backlinks' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);

    await user.click(within(pane).getByRole('button', { name: 'Show more backlinks' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(t.inputsOf('trees.backlinks').slice(-1)).toEqual([
      { tree: TREE_ID, node: 'docs/refunds.md', offset: 20, limit: 20 },
    ]);
    expect(within(pane).queryByRole('button', { name: 'Show more backlinks' })).toBeNull();
  });

  it('shows why a node could not be read, and reads it on Try again', async () => {
    const t = treesEngine();
    const { user } = await openTrees(t);
    const read = t.calls.length;
    t.fail('trees.read', 'not-found', 'The text of docs/refunds.md is not stored here.');
    await user.click(toggle('docs'));
    await user.click(await screen.findByRole('treeitem', { name: 'Refund policy' }));

    const alert = await screen.findByRole('alert');
    within(alert).getByText('Could not read docs/refunds.md');
    within(alert).getByText('The text of docs/refunds.md is not stored here.');
    expect(t.calls.length).toBeGreaterThan(read);

    t.answer('trees.read', readOf);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('article', { name: 'Refund policy' });
  });
});

describe('Broken links', () => {
  it('lists each broken link from → target, and opens the page it is in', async () => {
    const { user } = await openTrees();
    await user.click(screen.getByRole('tab', { name: /Broken links/ }));
    const table = await screen.findByRole('table', { name: 'Broken links' });
    const [, row] = within(table).getAllByRole('row');
    expect(
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['guides/escalation.md', 'guides/old-process.md']);

    await user.click(within(table).getByRole('button', { name: 'guides/escalation.md' }));
    await screen.findByRole('article', { name: 'Escalations' });
    expect(screen.getByRole('tab', { name: 'Tree' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says when there are none', async () => {
    const t = treesEngine();
    t.answer('trees.broken', () => ({
      tree: TREE_ID,
      branch: 'main',
      commit: 'c',
      links: [],
      truncated: false,
    }));
    const { user } = await openTrees(t);
    await user.click(screen.getByRole('tab', { name: /Broken links/ }));
    await screen.findByText('No broken links.');
  });
});

describe('Finding a node with Ctrl/Cmd+K', () => {
  it('finds a card by its reference id in the palette and opens it on the Trees screen', async () => {
    const t = treesEngine();
    const { user } = renderApp(t);
    await screen.findByRole('heading', { name: 'Files', level: 1 });

    await user.keyboard('{Control>}k{/Control}');
    await user.type(
      screen.getByRole('combobox', { name: 'Search files, passages and commands' }),
      'RULE-REF-0001',
    );
    const option = await screen.findByRole('option', { name: /RULE-REF-0001 One refund per order/ });
    within(option).getByText('handbook · docs/refunds.md#RULE-REF-0001');
    expect(t.inputsOf('trees.lookup').slice(-1)).toEqual([{ tree: TREE_ID, query: 'RULE-REF-0001' }]);

    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Trees', level: 1 });
    const pane = await screen.findByRole('article', { name: 'RULE-REF-0001 One refund per order' });
    const text = within(pane).getByRole('region', { name: /^Text of/ });
    expect(numbers(text)[0]).toBe(10);
    const row = await screen.findByRole('treeitem', { name: 'RULE-REF-0001 One refund per order' });
    expect(row.getAttribute('aria-selected')).toBe('true');
    expect(item('Refund policy').getAttribute('aria-expanded')).toBe('true');
  });
});
