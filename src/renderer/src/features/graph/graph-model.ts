/**
 * The graph view's data as graphology holds it: one node per item (size by degree, colour by storage
 * kind), one edge per (folded) link. Positions survive refetches so filtering never reshuffles the map.
 */
import Graph from 'graphology';
import type { GraphEdge, GraphNode, GraphView } from '#shared/api/types.ts';
import type { StorageKind } from '#shared/types.ts';

export type NodeAttrs = {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  storageKind: StorageKind;
  kind: string;
  scope: string;
  degree: number;
};
export type EdgeAttrs = { size: number; color: string; type: string; count: number };
export type BrainGraph = Graph<NodeAttrs, EdgeAttrs>;

const STORAGE_KIND_COLORS: Record<StorageKind, string> = {
  file: '#5753d0',
  section: '#9a97e6',
  note: '#d08a1a',
  entity: '#2d9d6a',
};

export const STORAGE_KIND_LABELS: Record<StorageKind, string> = {
  file: 'Files',
  section: 'Sections',
  note: 'Notes',
  entity: 'Entities',
};

const EDGE_COLORS: Record<string, string> = {
  MENTIONS: 'rgba(120, 120, 130, 0.35)',
  SAME_AS: 'rgba(208, 79, 138, 0.75)',
  HAS_SECTION: 'rgba(87, 83, 208, 0.25)',
};

function nodeSize(degree: number): number {
  return Math.min(22, 4.5 + 2.2 * Math.sqrt(degree));
}

/** Deterministic scatter for nodes never laid out: a golden-angle spiral, dense at the centre. */
function seedPosition(index: number, count: number): { x: number; y: number } {
  const r = Math.sqrt((index + 0.5) / Math.max(1, count)) * Math.sqrt(count) * 10;
  const a = index * 2.399963229728653;
  return { x: r * Math.cos(a), y: r * Math.sin(a) };
}

export type Positions = Map<string, { x: number; y: number }>;

function nodeAttrs(n: GraphNode, at: { x: number; y: number }): NodeAttrs {
  return {
    x: at.x,
    y: at.y,
    size: nodeSize(n.degree),
    color: STORAGE_KIND_COLORS[n.storageKind],
    label: n.label,
    storageKind: n.storageKind,
    kind: n.kind,
    scope: n.scope,
    degree: n.degree,
  };
}

function addEdge(graph: BrainGraph, e: GraphEdge): void {
  // Keyed by its ends and type: a folded file edge and the section edge it came from are two edges.
  const key = `${e.from}>${e.type}>${e.to}`;
  if (graph.hasEdge(key) || !graph.hasNode(e.from) || !graph.hasNode(e.to)) return;
  graph.addDirectedEdgeWithKey(key, e.from, e.to, {
    size: Math.min(3, 0.6 + 0.3 * Math.log2(e.count + 1)),
    color: EDGE_COLORS[e.type] ?? 'rgba(60, 110, 190, 0.5)',
    type: e.type,
    count: e.count,
  });
}

/** A fresh graph from a view; known positions are kept, new nodes are scattered. */
export function buildGraph(view: GraphView, positions: Positions): { graph: BrainGraph; fresh: number } {
  const graph: BrainGraph = new Graph<NodeAttrs, EdgeAttrs>({ type: 'directed', multi: true });
  let fresh = 0;
  view.nodes.forEach((n, i) => {
    const known = positions.get(n.id);
    if (!known) fresh++;
    graph.addNode(n.id, nodeAttrs(n, known ?? seedPosition(i, view.nodes.length)));
  });
  for (const e of view.edges) addEdge(graph, e);
  return { graph, fresh };
}

/** Adds a neighborhood next to its centre; returns the ids that were new. */
export function mergeNeighborhood(graph: BrainGraph, view: GraphView, centre: string): string[] {
  const origin = graph.hasNode(centre) ? graph.getNodeAttributes(centre) : { x: 0, y: 0 };
  const added: string[] = [];
  view.nodes.forEach((n, i) => {
    if (graph.hasNode(n.id)) return;
    const a = i * 2.399963229728653;
    const r = 8 + 2 * Math.sqrt(i);
    graph.addNode(n.id, nodeAttrs(n, { x: origin.x + r * Math.cos(a), y: origin.y + r * Math.sin(a) }));
    added.push(n.id);
  });
  for (const e of view.edges) addEdge(graph, e);
  graph.forEachNode((id, attrs) => {
    const degree = graph.degree(id);
    if (degree > attrs.degree) graph.mergeNodeAttributes(id, { degree, size: nodeSize(degree) });
  });
  return added;
}

export function rememberPositions(graph: BrainGraph, positions: Positions): void {
  graph.forEachNode((id, a) => {
    positions.set(id, { x: a.x, y: a.y });
  });
}

/** Lowercase, accents and punctuation folded: what the search box compares. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Nodes whose label matches the query: exact first, then prefix, then contains; best-connected first. */
export function searchNodes(graph: BrainGraph, query: string, limit = 8): string[] {
  const q = fold(query);
  if (!q) return [];
  const scored: { id: string; rank: number; degree: number }[] = [];
  graph.forEachNode((id, a) => {
    const label = fold(a.label);
    const rank = label === q ? 0 : label.startsWith(q) ? 1 : label.includes(q) ? 2 : -1;
    if (rank >= 0) scored.push({ id, rank, degree: a.degree });
  });
  scored.sort((x, y) => x.rank - y.rank || y.degree - x.degree || x.id.localeCompare(y.id));
  return scored.slice(0, limit).map((s) => s.id);
}
