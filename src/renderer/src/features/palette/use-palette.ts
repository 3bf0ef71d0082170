/**
 * What the palette shows for what was typed: commands (filtered here), nodes of connected repositories by
 * reference id, node id or path (trees.lookup, from two characters: features/trees/use-node-lookup.ts),
 * entities by name or alias (entities.list: their pages), files by name (files.list, from one
 * character) and passages by text (search.query, from three), asked
 * 180 ms after typing stops; and the
 * active option, moved by the arrows and run by Enter. Running an item closes the palette first.
 */
import { type KeyboardEvent, useEffect, useMemo, useState } from 'react';
import type { EntitySummary, FileRow } from '#shared/api/types.ts';
import type { SearchHit } from '#shared/types.ts';
import { call } from '../../lib/api.ts';
import { describeCitation } from '../../lib/format.ts';
import { useNodeLookup } from '../trees/use-node-lookup.ts';
import { excerpt, filterCommands, type PaletteItem } from './palette-items.ts';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export type PaletteInput = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: PaletteItem[];
  onOpenItem: (id: string, from: 'search' | 'citation') => void;
  /** Shows a node of a connected repository on the Trees screen. */
  onOpenNode: (tree: string, node: string) => void;
};

export function usePalette({ open, onOpenChange, commands, onOpenItem, onOpenNode }: PaletteInput) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [files, setFiles] = useState<FileRow[]>([]);
  const [entities, setEntities] = useState<EntitySummary[]>([]);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [searching, setSearching] = useState(false);
  const q = useDebounced(query.trim(), 180);
  const nodes = useNodeLookup(open, q);

  useEffect(() => {
    if (!open) {
      setQuery('');
      setFiles([]);
      setEntities([]);
      setHits([]);
    }
  }, [open]);

  useEffect(() => {
    let live = true;
    if (!open || q.length < 1) {
      setFiles([]);
      setEntities([]);
      setHits([]);
      return;
    }
    setSearching(true);
    const filesCall = call('files.list', { q, limit: 6, sort: 'name', dir: 'asc', offset: 0 })
      .then((r) => live && setFiles(r.rows))
      .catch(() => live && setFiles([]));
    const entitiesCall = call('entities.list', { q, limit: 5 })
      .then((r) => live && setEntities(r.entities))
      .catch(() => live && setEntities([]));
    const hitsCall =
      q.length >= 3
        ? call('search.query', { query: q, k: 6 })
            .then((r) => live && setHits(r.hits))
            .catch(() => live && setHits([]))
        : Promise.resolve(live && setHits([]));
    void Promise.all([filesCall, entitiesCall, hitsCall]).finally(() => live && setSearching(false));
    return () => {
      live = false;
    };
  }, [q, open]);

  const items = useMemo<PaletteItem[]>(() => {
    const close = (fn: () => void) => () => {
      onOpenChange(false);
      fn();
    };
    const fileItems: PaletteItem[] = files.map((f) => ({
      id: `file:${f.id}`,
      group: 'Files',
      label: f.label,
      hint: `${f.kind} · ${f.state}`,
      run: close(() => onOpenItem(f.id, 'search')),
    }));
    const entityItems: PaletteItem[] = entities.map((e) => ({
      id: `entity:${e.id}`,
      group: 'Entities',
      label: e.label,
      hint: [
        e.kind,
        `${e.mentions} mention${e.mentions === 1 ? '' : 's'}`,
        ...e.aliases.filter((a) => a !== e.label).slice(0, 3),
      ].join(' · '),
      run: close(() => onOpenItem(e.id, 'search')),
    }));
    const hitItems: PaletteItem[] = hits.map((h) => ({
      id: `hit:${h.id}`,
      group: 'Passages',
      label: describeCitation(h.citation) ?? h.label,
      hint: excerpt(h.body, q),
      run: close(() => onOpenItem(h.citation?.itemId ?? h.id, 'citation')),
    }));
    const nodeItems: PaletteItem[] = nodes.map((n) => ({
      id: `node:${n.tree}:${n.node.id}`,
      group: 'Tree nodes',
      label: n.node.title,
      hint: `${n.repo} · ${n.node.id}`,
      run: close(() => onOpenNode(n.tree, n.node.id)),
    }));
    const cmdItems = filterCommands(commands, query).map((c) => ({ ...c, run: close(c.run) }));
    return [...cmdItems.slice(0, query ? 5 : 12), ...nodeItems, ...entityItems, ...fileItems, ...hitItems];
  }, [files, entities, hits, nodes, commands, query, q, onOpenChange, onOpenItem, onOpenNode]);

  useEffect(() => {
    setActive((a) => Math.min(a, Math.max(0, items.length - 1)));
  }, [items.length]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => (items.length ? (a + 1) % items.length : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (items.length ? (a - 1 + items.length) % items.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      items[active]?.run();
    }
  };

  useEffect(() => {
    document.getElementById(`palette-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const type = (text: string) => {
    setQuery(text);
    setActive(0);
  };

  return { query, type, q, items, active, setActive, searching, onKeyDown };
}
