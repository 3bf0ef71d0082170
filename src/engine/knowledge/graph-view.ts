/**
 * The graph view's data (UI "Graph", `brain graph`): the visible nodes and edges of the store.
 *
 * - Scope first: nodes are items in the caller's scopes; an edge is kept only when both its ends
 *   (and, for a section folded into its file, the file too) are visible. Filters only narrow.
 * - Sections are folded into their files unless asked for: a mention found in a section becomes
 *   an edge from the file, and HAS_SECTION edges disappear. Parallel edges of one type collapse
 *   into one with a count.
 * - Without `around`, the best-connected `limit` nodes; with it, a breadth-first neighborhood.
 */
import type { GraphEdge, GraphNode, GraphView } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import type { StorageKind } from '#shared/types.ts';
import type { Db } from '../db/driver.ts';
import { visibleRow } from '../read/read.ts';

export type GraphQuery = {
  around?: string;
  hops: number;
  limit: number;
  storageKinds?: StorageKind[];
  kinds?: string[];
  edgeTypes?: string[];
  scopes?: string[];
};

export const DEFAULT_GRAPH_STORAGE_KINDS: StorageKind[] = ['file', 'note', 'entity'];
const STORAGE_KIND_ORDER: StorageKind[] = ['file', 'section', 'note', 'entity'];

type NodeRow = { id: string; label: string; storage_kind: StorageKind; kind: string; scope: string };
type EdgeRow = { id: string; type: string; f: string | null; t: string | null };

function loadNodes(db: Db, scopes: readonly string[], storageKinds: readonly StorageKind[]): NodeRow[] {
  return db
    .prepare(
      `SELECT id, label, storage_kind, kind, scope FROM items WHERE retired_at IS NULL
       AND scope IN (SELECT value FROM json_each(?)) AND storage_kind IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(scopes), JSON.stringify(storageKinds)) as NodeRow[];
}

function loadEdges(db: Db, scopes: readonly string[], fold: boolean): EdgeRow[] {
  return db
    .prepare(
      `SELECT e.id, e.type,
         CASE WHEN @fold = 1 AND a.storage_kind = 'section' THEN a.file_id ELSE a.id END AS f,
         CASE WHEN @fold = 1 AND b.storage_kind = 'section' THEN b.file_id ELSE b.id END AS t
       FROM edges e JOIN items a ON a.id = e.from_id JOIN items b ON b.id = e.to_id
       WHERE e.retired_at IS NULL AND a.retired_at IS NULL AND b.retired_at IS NULL
         AND a.scope IN (SELECT value FROM json_each(@scopes)) AND b.scope IN (SELECT value FROM json_each(@scopes))
         AND NOT (@fold = 1 AND e.type = 'HAS_SECTION')`,
    )
    .all({ scopes: JSON.stringify(scopes), fold: fold ? 1 : 0 }) as EdgeRow[];
}

/** Folded, de-duplicated edges whose both ends are among `nodes`. */
function collapseEdges(rows: EdgeRow[], nodes: Map<string, NodeRow>, types: Set<string> | null): GraphEdge[] {
  const byKey = new Map<string, GraphEdge>();
  for (const r of rows) {
    if (!r.f || !r.t || r.f === r.t || !nodes.has(r.f) || !nodes.has(r.t)) continue;
    if (types && !types.has(r.type)) continue;
    const key = `${r.f}\0${r.type}\0${r.t}`;
    const seen = byKey.get(key);
    if (seen) seen.count++;
    else byKey.set(key, { id: r.id, type: r.type, from: r.f, to: r.t, count: 1 });
  }
  return [...byKey.values()];
}

function neighborhoodIds(
  center: string,
  edges: GraphEdge[],
  degree: Map<string, number>,
  hops: number,
  limit: number,
) {
  const adjacent = new Map<string, string[]>();
  const push = (a: string, b: string) => {
    const list = adjacent.get(a);
    if (list) list.push(b);
    else adjacent.set(a, [b]);
  };
  for (const e of edges) {
    push(e.from, e.to);
    push(e.to, e.from);
  }
  const chosen = new Set([center]);
  let frontier = [center];
  let truncated = false;
  for (let hop = 0; hop < hops && frontier.length; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      const around = [...new Set(adjacent.get(id) ?? [])].sort(
        (a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a.localeCompare(b),
      );
      for (const n of around) {
        if (chosen.has(n)) continue;
        if (chosen.size >= limit) {
          truncated = true;
          break;
        }
        chosen.add(n);
        next.push(n);
      }
    }
    frontier = next;
  }
  return { chosen, truncated };
}

export function graphView(db: Db, visibleScopes: readonly string[], q: GraphQuery): GraphView {
  // Filters narrow what the user can see; they never widen it.
  const scopes = q.scopes?.length ? visibleScopes.filter((s) => q.scopes?.includes(s)) : [...visibleScopes];
  const storageKinds = q.storageKinds?.length ? q.storageKinds : DEFAULT_GRAPH_STORAGE_KINDS;
  const fold = !storageKinds.includes('section');
  const all = loadNodes(db, scopes, storageKinds);
  const kinds = q.kinds?.length ? new Set(q.kinds) : null;
  const nodes = new Map(all.filter((n) => !kinds || kinds.has(n.kind)).map((n) => [n.id, n]));
  const rows = loadEdges(db, scopes, fold);
  const edges = collapseEdges(rows, nodes, q.edgeTypes?.length ? new Set(q.edgeTypes) : null);
  const degree = new Map<string, number>();
  for (const e of edges) {
    degree.set(e.from, (degree.get(e.from) ?? 0) + e.count);
    degree.set(e.to, (degree.get(e.to) ?? 0) + e.count);
  }
  let chosen: Set<string>;
  let truncated = false;
  if (q.around) {
    const row = visibleRow(db, q.around, visibleScopes);
    const center = fold && row.storage_kind === 'section' && row.file_id ? row.file_id : row.id;
    if (!nodes.has(center)) {
      throw new AppError('not-found', `${row.label} is hidden by the graph's filters; clear them to see it.`);
    }
    ({ chosen, truncated } = neighborhoodIds(center, edges, degree, q.hops, q.limit));
  } else {
    const ranked = [...nodes.values()].sort(
      (a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || a.label.localeCompare(b.label),
    );
    truncated = ranked.length > q.limit;
    chosen = new Set(ranked.slice(0, q.limit).map((n) => n.id));
  }
  const edgeCap = Math.max(1000, q.limit * 4);
  const kept = edges.filter((e) => chosen.has(e.from) && chosen.has(e.to));
  if (kept.length > edgeCap) truncated = true;
  const outNodes: GraphNode[] = [...chosen].flatMap((id) => {
    const n = nodes.get(id);
    return n
      ? [
          {
            id: n.id,
            label: n.label,
            storageKind: n.storage_kind,
            kind: n.kind,
            scope: n.scope,
            degree: degree.get(n.id) ?? 0,
          },
        ]
      : [];
  });
  return {
    nodes: outNodes,
    edges: kept.slice(0, edgeCap),
    truncated,
    facets: {
      storageKinds: [...STORAGE_KIND_ORDER],
      kinds: [...new Set(all.map((n) => n.kind))].sort(),
      edgeTypes: [...new Set(rows.map((r) => r.type))].sort(),
      scopes: [...visibleScopes],
    },
  };
}
