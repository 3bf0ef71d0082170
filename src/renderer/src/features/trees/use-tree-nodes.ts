/**
 * The tree pane's data: the levels loaded so far (trees.tree, one level a page), which nodes are
 * expanded, and the actions on them. Children load the first time a node is expanded; "Show more"
 * asks for the next page from nextOffset. `reveal` expands a node's ancestors, so a node opened from
 * a link or the palette shows in place. A `trees.changed` for this tree reloads what is shown.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AppError } from '#shared/errors.ts';
import { useEvent } from '../../hooks/useEvent.ts';
import { call } from '../../lib/api.ts';
import { type Level, ROOT, visibleRows } from './tree-rows.ts';

/** Children a page (the app may ask for up to 200). */
const TREE_PAGE = 100;

const asAppError = (err: unknown) =>
  err instanceof AppError ? err : new AppError('internal', err instanceof Error ? err.message : String(err));

export function useTreeNodes(tree: string) {
  const [levels, setLevels] = useState<Record<string, Level>>({});
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const levelsRef = useRef(levels);
  levelsRef.current = levels;
  const live = useRef(true);

  const load = useCallback(
    async (id: string, offset = 0) => {
      setLevels((prev) => ({
        ...prev,
        [id]: { ...(prev[id] ?? { nodes: [], total: 0, nextOffset: null }), loading: true, error: null },
      }));
      try {
        const page = await call('trees.tree', { tree, node: id, depth: 1, offset, limit: TREE_PAGE });
        if (!live.current) return;
        setLevels((prev) => ({
          ...prev,
          [id]: {
            nodes: offset === 0 ? page.children : [...(prev[id]?.nodes ?? []), ...page.children],
            total: page.total,
            nextOffset: page.nextOffset,
            loading: false,
            error: null,
          },
        }));
      } catch (err) {
        if (!live.current) return;
        setLevels((prev) => ({
          ...prev,
          [id]: {
            ...(prev[id] ?? { nodes: [], total: 0, nextOffset: null }),
            loading: false,
            error: asAppError(err),
          },
        }));
      }
    },
    [tree],
  );

  useEffect(() => {
    live.current = true;
    void load(ROOT);
    return () => {
      live.current = false;
    };
  }, [load]);

  const expand = useCallback(
    (id: string) => {
      setExpanded((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
      const level = levelsRef.current[id];
      if (!level || (level.error && level.nodes.length === 0)) void load(id);
    },
    [load],
  );
  const collapse = useCallback((id: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      next.delete(id);
      return next;
    });
  }, []);
  const toggle = (id: string) => (expanded.has(id) ? collapse(id) : expand(id));
  const loadMore = (id: string) => {
    const level = levels[id];
    if (level && level.nextOffset !== null && !level.loading) void load(id, level.nextOffset);
  };
  const retry = (id: string) => void load(id, levels[id]?.nodes.length ?? 0);
  const reveal = useCallback(
    (ids: readonly string[]) => ids.filter((id) => id !== ROOT).forEach(expand),
    [expand],
  );

  useEvent('trees.changed', (payload) => {
    if (payload.tree !== tree) return;
    for (const id of [ROOT, ...expanded]) if (levelsRef.current[id]) void load(id);
  });

  const rows = useMemo(() => visibleRows(levels, expanded), [levels, expanded]);
  return {
    root: levels[ROOT],
    rows,
    expanded,
    expand,
    collapse,
    toggle,
    loadMore,
    retry,
    reveal,
    reload: () => load(ROOT),
  };
}

export type TreeNodes = ReturnType<typeof useTreeNodes>;
