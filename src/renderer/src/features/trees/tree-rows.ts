/**
 * The tree pane's rows: the loaded levels flattened in display order (a node, then its children when it
 * is expanded), with a "Show more" row after a level that has another page, and a loading or error row
 * for a level that is on its way. Keys are prefixed ("n:" a node, "m:" a level's "Show more") so a node
 * id can never collide with a row of another kind.
 */
import type { AppError } from '#shared/errors.ts';
import type { TreeNode } from './tree-format.ts';

export type Level = {
  nodes: TreeNode[];
  total: number;
  nextOffset: number | null;
  loading: boolean;
  error: AppError | null;
};

export type TreeRowItem =
  | {
      type: 'node';
      key: string;
      node: TreeNode;
      parent: string;
      depth: number;
      posinset: number;
      setsize: number;
    }
  | { type: 'more'; key: string; parent: string; depth: number; remaining: number; loading: boolean }
  | { type: 'loading'; key: string; parent: string; depth: number }
  | { type: 'error'; key: string; parent: string; depth: number; error: AppError };

export const ROOT = '/';
export const nodeKey = (id: string) => `n:${id}`;
const moreKey = (parent: string) => `m:${parent}`;

/** Whether a row can take the keyboard cursor (loading and error rows cannot). */
export function isNavigable(row: TreeRowItem): row is Extract<TreeRowItem, { type: 'node' | 'more' }> {
  return row.type === 'node' || row.type === 'more';
}

export function visibleRows(
  levels: Readonly<Record<string, Level>>,
  expanded: ReadonlySet<string>,
): TreeRowItem[] {
  const out: TreeRowItem[] = [];
  const walk = (parent: string, depth: number) => {
    const level = levels[parent];
    if (!level || (level.nodes.length === 0 && level.loading)) {
      out.push({ type: 'loading', key: `l:${parent}`, parent, depth });
      return;
    }
    level.nodes.forEach((node, i) => {
      out.push({
        type: 'node',
        key: nodeKey(node.id),
        node,
        parent,
        depth,
        posinset: i + 1,
        setsize: level.total,
      });
      if (node.children > 0 && expanded.has(node.id)) walk(node.id, depth + 1);
    });
    if (level.error) out.push({ type: 'error', key: `e:${parent}`, parent, depth, error: level.error });
    else if (level.nextOffset !== null)
      out.push({
        type: 'more',
        key: moreKey(parent),
        parent,
        depth,
        remaining: level.total - level.nodes.length,
        loading: level.loading,
      });
  };
  if (levels[ROOT]) walk(ROOT, 1);
  return out;
}
