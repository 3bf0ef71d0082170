/** The tree pane over a fake engine: levels with summaries and statuses, lazy children, the keyboard. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { COMMIT, TREE_ID, treesEngine } from '../../test/trees-canned.ts';
import type { TreeNode as TreeNodeView } from './tree-format.ts';

async function openTree() {
  const t = treesEngine();
  const view = renderApp(t);
  const rail = await screen.findByRole('navigation', { name: 'Main' });
  await view.user.click(within(rail).getByRole('button', { name: 'Trees' }));
  const tree = await screen.findByRole('tree', { name: 'Tree of handbook' });
  await within(tree).findByRole('treeitem', { name: 'docs' });
  return { ...view, t, tree };
}

const item = (name: string) => screen.getByRole('treeitem', { name });
const focused = () => document.activeElement?.getAttribute('aria-labelledby');
const focusedName = () => (focused() ? document.getElementById(focused() ?? '')?.textContent : null);

describe('Tree pane', () => {
  it('lists the first level, folders first, with summaries and a superseded badge', async () => {
    const { t, tree } = await openTree();

    expect(t.inputsOf('trees.tree')).toEqual([{ tree: TREE_ID, node: '/', depth: 1, offset: 0, limit: 100 }]);
    const rows = within(tree).getAllByRole('treeitem');
    expect(
      rows.map((r) => document.getElementById(r.getAttribute('aria-labelledby') ?? '')?.textContent),
    ).toEqual(['docs', 'guides', 'Support handbook', 'Refunds (2019)']);
    expect(rows.map((r) => r.getAttribute('aria-level'))).toEqual(['1', '1', '1', '1']);
    expect(item('docs').getAttribute('aria-expanded')).toBe('false');
    expect(item('Refunds (2019)').hasAttribute('aria-expanded')).toBe(false);
    within(item('Support handbook')).getByText(
      'How the support team answers customers, and where the rules live.',
    );

    const old = item('Refunds (2019)');
    const badge = within(old).getByText('Superseded');
    expect(badge.getAttribute('title')).toBe('Superseded by docs/refunds.md');
    expect(badge.className).toContain('tree-badge--inactive');
    expect(old.getAttribute('aria-setsize')).toBe('4');
    expect(old.getAttribute('aria-posinset')).toBe('4');
  });

  it('loads a folder’s children only when it is expanded, and hides them again', async () => {
    const { t, user } = await openTree();
    expect(t.inputsOf('trees.tree').map((i) => i.node)).toEqual(['/']);

    const docs = item('docs');
    await user.click(docs.querySelector('[data-toggle]') as HTMLElement);
    await screen.findByRole('treeitem', { name: 'Refund policy' });
    expect(t.inputsOf('trees.tree').map((i) => i.node)).toEqual(['/', 'docs/']);
    expect(docs.getAttribute('aria-expanded')).toBe('true');
    expect(item('adr').getAttribute('aria-level')).toBe('2');
    within(item('Refund policy')).getByText(
      'Customers get a refund within 30 days of purchase, once per order.',
    );
    // Expanding is not opening: nothing was read.
    expect(t.inputsOf('trees.read')).toEqual([]);

    await user.click(docs.querySelector('[data-toggle]') as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: 'Refund policy' })).toBeNull());
    await user.click(docs.querySelector('[data-toggle]') as HTMLElement);
    await screen.findByRole('treeitem', { name: 'Refund policy' });
    // Already loaded: expanding again does not ask again.
    expect(t.inputsOf('trees.tree').map((i) => i.node)).toEqual(['/', 'docs/']);
  });

  it('moves with the arrows, expands with Right, goes back up with Left, jumps with Home/End and opens with Enter', async () => {
    const { t, user } = await openTree();
    expect(item('docs').tabIndex).toBe(0);
    expect(item('guides').tabIndex).toBe(-1);
    act(() => item('docs').focus());

    await user.keyboard('{ArrowDown}');
    expect(focusedName()).toBe('guides');
    expect(item('guides').tabIndex).toBe(0);
    expect(item('docs').tabIndex).toBe(-1);
    await user.keyboard('{ArrowUp}');
    expect(focusedName()).toBe('docs');

    await user.keyboard('{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'adr' });
    expect(item('docs').getAttribute('aria-expanded')).toBe('true');
    expect(focusedName()).toBe('docs');
    await user.keyboard('{ArrowRight}');
    expect(focusedName()).toBe('adr');

    await user.keyboard('{ArrowDown}{ArrowRight}');
    await screen.findByRole('treeitem', { name: 'Refund window' });
    expect(item('Refund window').getAttribute('aria-level')).toBe('3');
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(screen.queryByRole('treeitem', { name: 'Refund window' })).toBeNull());
    expect(focusedName()).toBe('Refund policy');
    await user.keyboard('{ArrowLeft}');
    expect(focusedName()).toBe('docs');

    await user.keyboard('{End}');
    expect(focusedName()).toBe('Refunds (2019)');
    await user.keyboard('{Home}');
    expect(focusedName()).toBe('docs');

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() =>
      expect(t.inputsOf('trees.read')).toEqual([{ tree: TREE_ID, node: 'docs/refunds.md' }]),
    );
    await screen.findByRole('heading', { name: 'Refund policy', level: 2 });
    expect(item('Refund policy').getAttribute('aria-selected')).toBe('true');
    expect(item('docs').getAttribute('aria-selected')).toBe('false');
  });

  it('pages a long level with Show more', async () => {
    const { t, user } = await openTree();
    const doc = (id: string): TreeNodeView => ({
      id,
      kind: 'document',
      title: id.replace('guides/', ''),
      summary: `What ${id} says.`,
      summarySource: 'paragraph',
      path: id,
      lineStart: 1,
      lineEnd: 3,
      tokens: 40,
      status: null,
      supersededBy: null,
      changed: null,
      children: 0,
    });
    const all = Array.from({ length: 130 }, (_, i) =>
      doc(`guides/note-${String(i + 1).padStart(3, '0')}.md`),
    );
    t.answer('trees.tree', (input) => {
      const offset = input.offset ?? 0;
      const children = all.slice(offset, offset + (input.limit ?? 50));
      const next = offset + children.length;
      return {
        tree: TREE_ID,
        commit: COMMIT,
        node: { ...doc('guides/'), kind: 'folder', title: 'guides', children: all.length },
        breadcrumb: [{ id: '/', title: 'handbook' }],
        children,
        total: all.length,
        offset,
        nextOffset: next < all.length ? next : null,
      };
    });
    await user.click(item('guides').querySelector('[data-toggle]') as HTMLElement);
    const more = await screen.findByRole('treeitem', { name: 'Show 30 more' });
    expect(screen.getAllByRole('treeitem', { name: /^note-/ })).toHaveLength(100);

    await user.click(more);
    await waitFor(() => expect(screen.getAllByRole('treeitem', { name: /^note-/ })).toHaveLength(130));
    expect(t.inputsOf('trees.tree').slice(-1)).toEqual([
      { tree: TREE_ID, node: 'guides/', depth: 1, offset: 100, limit: 100 },
    ]);
    expect(screen.queryByRole('treeitem', { name: /^Show .* more$/ })).toBeNull();
  });
});
