/**
 * The command palette's source of tree nodes: what a reference id (ADR-003), a node id or a path names
 * in the connected repositories (trees.lookup, exact, so it waits for two characters). The repositories
 * are listed once each time the palette opens; those without a built tree are not asked. A failed
 * lookup leaves that repository out instead of failing the palette.
 */
import { useEffect, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { call } from '../../lib/api.ts';
import { isReadable, repoName, type TreeSource } from './tree-format.ts';

export type NodeHit = Outputs['trees.lookup']['matches'][number] & { tree: string; repo: string };

const MAX_HITS = 6;

export function useNodeLookup(open: boolean, q: string): NodeHit[] {
  const [trees, setTrees] = useState<TreeSource[]>([]);
  const [hits, setHits] = useState<NodeHit[]>([]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    call('trees.list', {})
      .then((r) => live && setTrees(r.trees.filter(isReadable)))
      .catch(() => live && setTrees([]));
    return () => {
      live = false;
    };
  }, [open]);

  useEffect(() => {
    let live = true;
    if (!open || q.length < 2 || trees.length === 0) {
      setHits([]);
      return;
    }
    const each = trees.map((t) =>
      call('trees.lookup', { tree: t.id, query: q })
        .then((r) => r.matches.map((m) => ({ ...m, tree: t.id, repo: repoName(t.root) })))
        .catch(() => [] as NodeHit[]),
    );
    void Promise.all(each).then((all) => live && setHits(all.flat().slice(0, MAX_HITS)));
    return () => {
      live = false;
    };
  }, [open, q, trees]);

  return hits;
}
