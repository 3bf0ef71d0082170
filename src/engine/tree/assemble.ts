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
import { MAX_BROKEN, resolveLinks } from './links.ts';
import { compareDocumentNames, compareNames, latestChange, readmeRank } from './order.ts';
import { PARSED_VERSION, type ParsedDocument } from './parsed.ts';
import { baseName, foldersOf } from './paths.ts';
import { cut, layoutSummary, NONE, type Summary } from './summary.ts';
import type { BuiltTree, Change, TreeNode } from './types.ts';

export const MAX_DOCUMENTS = 20_000;
export const SKIP_DOCUMENT_CAP = `over the cap of ${MAX_DOCUMENTS.toLocaleString('en-US')} documents`;
export const SKIP_DUPLICATE = 'the same path twice';
const ROOT_ID = '/';

export type AssembleOptions = {
  /**
   * Paths the repository has that the tree does not hold (too large, not Markdown, never
   * indexed): a link to one of them is not broken.
   */
  otherPaths?: Iterable<string>;
  /** The root node's title, cut like titles (the repository's name, docs/TREES.md [T6]); `/` when absent or empty. */
  rootTitle?: string;
};

type Folder = {
  id: string;
  name: string;
  folders: Folder[];
  docs: ParsedDocument[];
  chars: number;
  changed: Change | null;
  summary: Summary;
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

export function assembleTree(docs: ParsedDocument[], options: AssembleOptions = {}): BuiltTree {
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
  const root: Folder = {
    id: ROOT_ID,
    name: '',
    folders: [],
    docs: [],
    chars: 0,
    changed: null,
    summary: NONE,
  };
  const folders = new Map<string, Folder>([[ROOT_ID, root]]);
  for (const doc of kept) {
    let parent = root;
    for (const id of foldersOf(doc.path)) {
      let folder = folders.get(id);
      if (!folder) {
        folder = { id, name: baseName(id), folders: [], docs: [], chars: 0, changed: null, summary: NONE };
        folders.set(id, folder);
        parent.folders.push(folder);
      }
      parent = folder;
    }
    parent.docs.push(doc);
  }

  // Order, sizes, changes and summaries, deepest folders first.
  const depth = (f: Folder) => (f === root ? 0 : f.id.split('/').length);
  const deepestFirst = [...folders.values()].sort((a, b) => depth(b) - depth(a));
  for (const folder of deepestFirst) {
    folder.folders.sort((a, b) => compareNames(a.name, b.name));
    if (folder.docs.length > 1) {
      // Each name computed once, not at every comparison.
      const names = new Map(folder.docs.map((d) => [d, baseName(d.path)]));
      folder.docs.sort((a, b) => compareDocumentNames(names.get(a) as string, names.get(b) as string));
    }
    folder.chars =
      folder.folders.reduce((n, f) => n + f.chars, 0) + folder.docs.reduce((n, d) => n + d.chars, 0);
    folder.changed = latestChange([
      ...folder.folders.map((f) => f.changed),
      ...folder.docs.map((d) => d.changed),
    ]);
    folder.summary = folderSummary(folder);
  }

  // Reference ids and who defines them, in tree order.
  const treeOrder: {
    folder: Folder | null;
    doc: ParsedDocument | null;
    parent: string | null;
    ordinal: number;
  }[] = [];
  const stack: {
    folder: Folder | null;
    doc: ParsedDocument | null;
    parent: string | null;
    ordinal: number;
  }[] = [{ folder: root, doc: null, parent: null, ordinal: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    treeOrder.push(entry);
    const folder = entry.folder;
    if (!folder) continue;
    const children = [
      ...folder.folders.map((f, i) => ({ folder: f, doc: null, parent: folder.id, ordinal: i })),
      ...folder.docs.map((d, i) => ({
        folder: null,
        doc: d,
        parent: folder.id,
        ordinal: folder.folders.length + i,
      })),
    ];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }

  const nodes: TreeNode[] = [];
  const definers = new Map<string, string[]>();
  for (const entry of treeOrder) {
    if (entry.folder) {
      const f = entry.folder;
      nodes.push({
        id: f.id,
        kind: f === root ? 'root' : 'folder',
        parent: entry.parent,
        ordinal: entry.ordinal,
        path: f === root ? '' : f.id,
        anchor: null,
        title: f === root ? cut(options.rootTitle ?? '') || ROOT_ID : f.name,
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
      });
      continue;
    }
    const doc = entry.doc!;
    for (const n of doc.nodes) {
      const isDoc = n.kind === 'document';
      nodes.push({
        id: n.id,
        kind: n.kind,
        parent: isDoc ? entry.parent : n.parent,
        ordinal: isDoc ? entry.ordinal : n.ordinal,
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
        outgoingTotal: 0,
      });
      if (n.refIds.length === 0) continue;
      for (const id of n.refIds.length === 1 ? n.refIds : new Set(n.refIds)) {
        const list = definers.get(id);
        if (list) list.push(n.id);
        else definers.set(id, [n.id]);
      }
    }
  }

  const others = new Set(options.otherPaths ?? []);
  for (const s of skipped) others.add(s.path);
  const { outgoing, totals, broken } = resolveLinks({
    docs: kept,
    folders: new Set(folders.keys()),
    otherPaths: others,
    definers,
  });
  const links = [];
  for (const node of nodes) {
    node.outgoingTotal = totals.get(node.id) ?? 0;
    links.push(...(outgoing.get(node.id) ?? []));
  }

  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { nodes, links, broken: broken.slice(0, MAX_BROKEN), skipped };
}
