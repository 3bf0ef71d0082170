/**
 * The tree's keyboard, as in a file manager (WAI-ARIA tree pattern): Up/Down move the cursor, Right
 * expands a node or goes to its first child, Left collapses it or goes to its parent, Home/End jump,
 * Enter opens the node in the node pane (on "Show more", loads the next page). The cursor is the one
 * row with tabIndex 0 (roving tabindex); the DOM focus follows it while it is inside the tree.
 */
import type { KeyboardEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { isNavigable, nodeKey, ROOT, type TreeRowItem } from './tree-rows.ts';
import type { TreeNodes } from './use-tree-nodes.ts';

export function useTreeKeys(nodes: TreeNodes, onOpen: (id: string) => void) {
  const [cursor, setCursor] = useState<string | null>(null);
  const elements = useRef(new Map<string, HTMLElement>());
  const navigable = nodes.rows.filter(isNavigable);
  const index = Math.max(
    0,
    navigable.findIndex((r) => r.key === cursor),
  );
  const current = navigable[index];
  const focusKey = current?.key ?? null;

  // Keyboard moves put the DOM focus on the new cursor row, but only while the focus is in the tree.
  useEffect(() => {
    if (!focusKey) return;
    const el = elements.current.get(focusKey);
    const tree = el?.closest('[role="tree"]');
    if (el && tree?.contains(document.activeElement) && document.activeElement !== el) el.focus();
  }, [focusKey]);

  const moveTo = (row: TreeRowItem | undefined) => {
    if (row) setCursor(row.key);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) return;
    const node = current.type === 'node' ? current.node : null;
    const isOpen = node !== null && nodes.expanded.has(node.id);
    let handled = true;
    if (e.key === 'ArrowDown') moveTo(navigable[index + 1]);
    else if (e.key === 'ArrowUp') moveTo(navigable[index - 1]);
    else if (e.key === 'Home') moveTo(navigable[0]);
    else if (e.key === 'End') moveTo(navigable[navigable.length - 1]);
    else if (e.key === 'ArrowRight') {
      if (node && node.children > 0 && !isOpen) nodes.expand(node.id);
      else if (node && isOpen) {
        const next = navigable[index + 1];
        if (next?.parent === node.id) moveTo(next);
      }
    } else if (e.key === 'ArrowLeft') {
      if (node && isOpen) nodes.collapse(node.id);
      else if (current.parent !== ROOT) setCursor(nodeKey(current.parent));
    } else if (e.key === 'Enter') {
      if (node) onOpen(node.id);
      else nodes.loadMore(current.parent);
    } else handled = false;
    if (handled) e.preventDefault();
  };

  const register = (key: string) => (el: HTMLElement | null) => {
    if (el) elements.current.set(key, el);
    else elements.current.delete(key);
  };

  return { focusKey, setCursor, onKeyDown, register };
}
