/**
 * The tree from parsed documents (docs/TREES.md): `assembleTree` adds the folders and the root,
 * orders and numbers every node, summarises folders and the root, dates them with the latest
 * change they hold, sizes them, and resolves links, mentions and broken links. It never reads
 * text: a whole build and an incremental one (stored documents plus re-parsed ones) assemble the
 * same tree from the same documents, in any order.
 *
 * Output order: `nodes` in tree order (depth first: the root, then each child in ordinal order
 * followed by everything under it; a document's sections and cards in document order); `links`
 * by their source node in that order, then in document order; `broken` by document path, then in
 * document order; `skipped` by path.
 *
 * At most 20,000 documents: the first 20,000 paths in code-unit order are kept, the others are
 * skipped (and links to them are neither links nor broken). A path given twice keeps one copy
 * (the same one whatever the input order) and skips the other. A ParsedDocument made by another
 * parser version (PARSED_VERSION) is refused: the caller parses it again or builds whole.
 */

import { tokensOf } from './lines.ts';
import { brokenOf, type DocumentLinks, type LinkLookup, resolveDocumentLinks } from './links.ts';
import { compareDocumentNames, compareNames, latestChange, readmeRank } from './order.ts';
import { PARSED_VERSION, type ParsedDocument } from './parsed.ts';
import { baseName, foldersOf } from './paths.ts';
import { cut, layoutSummary, NONE, type Summary } from './summary.ts';
import type { BuiltTree, Change, TreeLink, TreeNode } from './types.ts';

export const MAX_DOCUMENTS = 20_000;
export const SKIP_DOCUMENT_CAP = `over the cap of ${MAX_DOCUMENTS.toLocaleString('en-US')} documents`;
export const SKIP_DUPLICATE = 'the same path twice';
export const ROOT_ID = '/';

export type AssembleOptions = {
  /**
   * Paths the repository has that the tree does not hold (too large, not Markdown, never
   * indexed): a link to one of them is not broken.
   */
  otherPaths?: Iterable<string>;
  /** The root node's title, cut like titles (the repository's name, docs/TREES.md [T6]); `/` when absent or empty. */
  rootTitle?: string;
};

/** A folder (or the root) of an assembly: its sub-folders and documents in tree order. */
export type Folder = {
  id: string;
  name: string;
  parent: Folder | null;
  folders: Folder[];
  docs: ParsedDocument[];
  chars: number;
  changed: Change | null;
  summary: Summary;
};

/** A node that defines a reference id: its id, its document and its place in the document. */
export type Definer = { id: string; path: string; index: number };

/**
 * An assembled tree with what an incremental assembly needs to change it (docs/TREES.md [T14]):
 * the folders, the nodes by id, who defines each reference id (in tree order), which documents
 * link to each path or mention each id, and each document's resolved links.
 */
export type Assembly = {
  /** The root node's title. */
  rootTitle: string;
  /** Paths a link to which is not broken though the tree does not hold them. */
  otherPaths: Set<string>;
  root: Folder;
  folders: Map<string, Folder>;
  /** The documents the tree holds, by path. */
  docs: Map<string, ParsedDocument>;
  skipped: { path: string; reason: string }[];
  nodes: Map<string, TreeNode>;
  definers: Map<string, Definer[]>;
  /** Documents by the path their links point to (as resolved, before any fragment). */
  linkers: Map<string, Set<string>>;
  /** Documents by the reference ids they mention. */
  mentioners: Map<string, Set<string>>;
  links: Map<string, DocumentLinks>;
  /** The documents that have broken links. */
  brokenDocs: Set<string>;
};

function byPath(a: ParsedDocument, b: ParsedDocument): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

function documentNode(doc: ParsedDocument) {
  return doc.nodes[0]!;
}

/** A folder's (or the root's) summary: its README, its one document, or its layout. */
function folderSummary(folder: Folder): Summary {
  const readme = folder.docs.find((d) => readmeRank(baseName(d.path)) < 2);
  if (readme && documentNode(readme).summary) {
    return { summary: documentNode(readme).summary, summarySource: 'readme' };
  }
  if (folder.folders.length === 0 && folder.docs.length === 1) {
    const only = documentNode(folder.docs[0]!);
    return {
      summary: cut(only.summary ? `${only.title}: ${only.summary}` : only.title),
      summarySource: 'children',
    };
  }
  const entries = [
    ...folder.folders.map((f) => ({
      name: f.name,
      onlyDocumentTitle:
        f.folders.length === 0 && f.docs.length === 1 ? documentNode(f.docs[0]!).title : null,
    })),
    ...folder.docs.map((d) => ({ name: documentNode(d).title, onlyDocumentTitle: null })),
  ];
  return entries.length > 0 ? layoutSummary(entries) : NONE;
}

export function newFolder(id: string, parent: Folder | null): Folder {
  return {
    id,
    name: id === ROOT_ID ? '' : baseName(id),
    parent,
    folders: [],
    docs: [],
    chars: 0,
    changed: null,
    summary: NONE,
  };
}

/** A folder's size, latest change and summary from its (settled) children, which are in tree order. */
export function settleFolder(folder: Folder): void {
  folder.chars =
    folder.folders.reduce((n, f) => n + f.chars, 0) + folder.docs.reduce((n, d) => n + d.chars, 0);
  folder.changed = latestChange([
    ...folder.folders.map((f) => f.changed),
    ...folder.docs.map((d) => d.changed),
  ]);
  folder.summary = folderSummary(folder);
}

export function depthOf(folder: Folder): number {
  return folder.id === ROOT_ID ? 0 : folder.id.split('/').length;
}

export function rootTitleOf(title: string | undefined): string {
  return cut(title ?? '') || ROOT_ID;
}

/** A folder's node (the root's when it has no parent). */
export function folderNode(a: Assembly, f: Folder, ordinal: number): TreeNode {
  const isRoot = f.parent === null;
  return {
    id: f.id,
    kind: isRoot ? 'root' : 'folder',
    parent: f.parent?.id ?? null,
    ordinal,
    path: isRoot ? '' : f.id,
    anchor: null,
    title: isRoot ? a.rootTitle : f.name,
    summary: f.summary.summary,
    summarySource: f.summary.summarySource,
    lineStart: 0,
    ownEnd: 0,
    lineEnd: 0,
    tokens: tokensOf(f.chars),
    status: null,
    supersededBy: null,
    refIds: [],
    changed: f.changed,
    outgoingTotal: 0,
  };
}

/** A document's nodes (the document, then its sections and cards), placed under its folder. */
export function documentNodes(
  doc: ParsedDocument,
  parent: string,
  ordinal: number,
  totals: ReadonlyMap<string, number> | undefined,
): TreeNode[] {
  return doc.nodes.map((n) => {
    const isDoc = n.kind === 'document';
    return {
      id: n.id,
      kind: n.kind,
      parent: isDoc ? parent : n.parent,
      ordinal: isDoc ? ordinal : n.ordinal,
      path: doc.path,
      anchor: n.anchor,
      title: n.title,
      summary: n.summary,
      summarySource: n.summarySource,
      lineStart: n.lineStart,
      ownEnd: n.ownEnd,
      lineEnd: n.lineEnd,
      tokens: tokensOf(n.chars),
      status: n.status,
      supersededBy: n.supersededBy,
      refIds: n.refIds.length ? [...n.refIds] : [],
      changed: isDoc && doc.changed ? { ...doc.changed } : null,
      outgoingTotal: totals?.get(n.id) ?? 0,
    };
  });
}

/** The reference ids a document's nodes define: each node's once, in document order. */
export function definersOf(doc: ParsedDocument): { id: string; definer: Definer }[] {
  const out: { id: string; definer: Definer }[] = [];
  for (const [index, n] of doc.nodes.entries()) {
    if (n.refIds.length === 0) continue;
    for (const id of n.refIds.length === 1 ? n.refIds : new Set(n.refIds))
      out.push({ id, definer: { id: n.id, path: doc.path, index } });
  }
  return out;
}

function addTo(index: Map<string, Set<string>>, key: string, path: string): void {
  const set = index.get(key);
  if (set) set.add(path);
  else index.set(key, new Set([path]));
}

/** Records which paths a document links to and which ids it mentions. */
export function indexReferences(a: Assembly, doc: ParsedDocument): void {
  for (const ref of doc.refs) {
    if (ref.kind === 'mention') addTo(a.mentioners, ref.id, doc.path);
    else addTo(a.linkers, ref.path, doc.path);
  }
}

export function lookupOf(a: Assembly): LinkLookup {
  return { docs: a.docs, folders: a.folders, otherPaths: a.otherPaths, definers: a.definers };
}

/** Each folder and document in tree order, with its place among its siblings. */
function* treeOrder(
  folder: Folder,
  ordinal = 0,
): Generator<{ folder: Folder; ordinal: number } | { doc: ParsedDocument; parent: Folder; ordinal: number }> {
  yield { folder, ordinal };
  for (const [i, f] of folder.folders.entries()) yield* treeOrder(f, i);
  for (const [i, d] of folder.docs.entries())
    yield { doc: d, parent: folder, ordinal: folder.folders.length + i };
}

/** Assembles the tree of some parsed documents, keeping what an incremental assembly needs. */
export function assemble(docs: ParsedDocument[], options: AssembleOptions = {}): Assembly {
  for (const doc of docs) {
    if (doc.version !== PARSED_VERSION) {
      throw new Error(
        `${doc.path} was parsed by parser version ${doc.version}, not ${PARSED_VERSION}: parse it again`,
      );
    }
  }
  const skipped: { path: string; reason: string }[] = [];
  const kept: ParsedDocument[] = [];
  for (const doc of [...docs].sort(byPath)) {
    if (kept.length > 0 && kept[kept.length - 1]!.path === doc.path)
      skipped.push({ path: doc.path, reason: SKIP_DUPLICATE });
    else if (kept.length >= MAX_DOCUMENTS) skipped.push({ path: doc.path, reason: SKIP_DOCUMENT_CAP });
    else kept.push(doc);
  }

  // Folders: every folder that holds a kept document, at any depth.
  const root = newFolder(ROOT_ID, null);
  const folders = new Map<string, Folder>([[ROOT_ID, root]]);
  for (const doc of kept) {
    let parent = root;
    for (const id of foldersOf(doc.path)) {
      let folder = folders.get(id);
      if (!folder) {
        folder = newFolder(id, parent);
        folders.set(id, folder);
        parent.folders.push(folder);
      }
      parent = folder;
    }
    parent.docs.push(doc);
  }

  // Order, sizes, changes and summaries, deepest folders first.
  const deepestFirst = [...folders.values()].sort((a, b) => depthOf(b) - depthOf(a));
  for (const folder of deepestFirst) {
    folder.folders.sort((a, b) => compareNames(a.name, b.name));
    if (folder.docs.length > 1) {
      // Each name computed once, not at every comparison.
      const names = new Map(folder.docs.map((d) => [d, baseName(d.path)]));
      folder.docs.sort((a, b) => compareDocumentNames(names.get(a) as string, names.get(b) as string));
    }
    settleFolder(folder);
  }

  const others = new Set(options.otherPaths ?? []);
  for (const s of skipped) others.add(s.path);
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const a: Assembly = {
    rootTitle: rootTitleOf(options.rootTitle),
    otherPaths: others,
    root,
    folders,
    docs: new Map(kept.map((d) => [d.path, d])),
    skipped,
    nodes: new Map(),
    definers: new Map(),
    linkers: new Map(),
    mentioners: new Map(),
    links: new Map(),
    brokenDocs: new Set(),
  };

  // Reference ids and who defines them, in tree order.
  for (const entry of treeOrder(root)) {
    if (!('doc' in entry)) continue;
    for (const { id, definer } of definersOf(entry.doc)) {
      const list = a.definers.get(id);
      if (list) list.push(definer);
      else a.definers.set(id, [definer]);
    }
  }
  const lookup = lookupOf(a);
  for (const doc of kept) {
    indexReferences(a, doc);
    const links = resolveDocumentLinks(doc, lookup);
    a.links.set(doc.path, links);
    if (links.broken.length > 0) a.brokenDocs.add(doc.path);
  }
  for (const entry of treeOrder(root)) {
    if ('doc' in entry) {
      const totals = a.links.get(entry.doc.path)?.totals;
      for (const n of documentNodes(entry.doc, entry.parent.id, entry.ordinal, totals)) a.nodes.set(n.id, n);
    } else a.nodes.set(entry.folder.id, folderNode(a, entry.folder, entry.ordinal));
  }
  return a;
}

/** The broken links of an assembly: by document path, then in document order; at most 5,000. */
export function brokenLinksOf(a: Assembly): BuiltTree['broken'] {
  const paths = [...a.brokenDocs].sort();
  return brokenOf(paths.map((p) => a.links.get(p) ?? { broken: [] }));
}

/** The tree an assembly holds, in the order documented above. */
export function treeOf(a: Assembly): BuiltTree {
  const nodes: TreeNode[] = [];
  const links: TreeLink[] = [];
  for (const entry of treeOrder(a.root)) {
    if (!('doc' in entry)) {
      nodes.push(a.nodes.get(entry.folder.id)!);
      continue;
    }
    const outgoing = a.links.get(entry.doc.path)?.outgoing;
    for (const n of entry.doc.nodes) {
      nodes.push(a.nodes.get(n.id)!);
      const list = outgoing?.get(n.id);
      if (list) links.push(...list);
    }
  }
  return { nodes, links, broken: brokenLinksOf(a), skipped: [...a.skipped] };
}

export function assembleTree(docs: ParsedDocument[], options: AssembleOptions = {}): BuiltTree {
  return treeOf(assemble(docs, options));
}
