/**
 * An incremental assembly (docs/TREES.md [T14]): the assembly of the last build, changed in place
 * by the documents that changed, gives the same tree `assemble` gives for the new documents, and
 * says which nodes and links may differ, so a build compares and writes only those.
 *
 * What a changed document can reach, and so what is made again:
 * - its own nodes, and its folder and every folder above it (sizes, latest change, summaries:
 *   a folder's summary reads only its own children and their only documents);
 * - when a folder gains or loses a child, the nodes of all its children (their ordinals);
 * - the links of the documents that link to its path (its anchors, or whether it exists), of
 *   those that link to a folder that appears or goes, of those that link to a path that becomes
 *   or stops being one of the other paths, and of those that mention an id whose definers
 *   changed (definers are in tree order, which a change moves for no other node).
 * Nothing else depends on a document. An assembly that skipped documents (over the cap, or a
 * path given twice), a change that would pass the cap, or another root title is not changed: the
 * caller assembles whole.
 */
import {
  type Assembly,
  brokenLinksOf,
  type Definer,
  definersOf,
  depthOf,
  documentNodes,
  type Folder,
  folderNode,
  indexReferences,
  lookupOf,
  MAX_DOCUMENTS,
  newFolder,
  ROOT_ID,
  rootTitleOf,
  settleFolder,
} from './assemble.ts';
import { resolveDocumentLinks } from './links.ts';
import { compareDocumentNames, compareNames, compareTreePaths } from './order.ts';
import { PARSED_VERSION, type ParsedDocument } from './parsed.ts';
import { baseName, foldersOf } from './paths.ts';
import type { BrokenLink, TreeLink, TreeNode } from './types.ts';

export type AssemblyChange = {
  /** The documents that changed, by path: the new parsed document, or null when it is gone. */
  docs: ReadonlyMap<string, ParsedDocument | null>;
  /** Every path a link to which is not broken though the tree does not hold it (as `assemble` takes them). */
  otherPaths: Iterable<string>;
  rootTitle?: string;
};

export type AssemblyDelta = {
  /** The nodes that may differ from the last assembly's (all in the tree now). */
  nodes: TreeNode[];
  /** The ids of nodes the tree no longer has. */
  goneNodes: string[];
  /** The source nodes whose links may differ, with their links now (empty: it has none now). */
  links: Map<string, TreeLink[]>;
  broken: BrokenLink[];
};

function folderOfPath(path: string): string {
  return foldersOf(path).at(-1) ?? ROOT_ID;
}

/** Where an item goes in a sorted list (after equal ones). */
function insertAt<T>(list: T[], item: T, compare: (a: T, b: T) => number): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid] as T, item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

const byName = (a: Folder, b: Folder) => compareNames(a.name, b.name);
const byDocumentName = (a: ParsedDocument, b: ParsedDocument) =>
  compareDocumentNames(baseName(a.path), baseName(b.path));
const byTreeOrder = (a: Definer, b: Definer) => compareTreePaths(a.path, b.path) || a.index - b.index;

type Work = {
  /** Ref ids whose definers may have changed, with their definer ids before. */
  definersBefore: Map<string, string>;
  /** Folders whose children changed (their children's ordinals). */
  reordered: Set<Folder>;
  /** Folder ids that appeared or went. */
  folderChanges: Set<string>;
  /** Node ids of documents and folders taken out (gone unless they come back). */
  removedIds: Set<string>;
};

function unindex(index: Map<string, Set<string>>, key: string, path: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(path);
  if (set.size === 0) index.delete(key);
}

function noteDefiners(a: Assembly, w: Work, id: string): void {
  if (!w.definersBefore.has(id))
    w.definersBefore.set(id, (a.definers.get(id) ?? []).map((d) => d.id).join('\n'));
}

/** Takes a document's nodes, definitions, references and links out of the indexes (not its folder). */
function detach(a: Assembly, w: Work, doc: ParsedDocument): void {
  for (const n of doc.nodes) {
    a.nodes.delete(n.id);
    w.removedIds.add(n.id);
  }
  for (const { id } of definersOf(doc)) {
    noteDefiners(a, w, id);
    const list = (a.definers.get(id) ?? []).filter((d) => d.path !== doc.path);
    if (list.length > 0) a.definers.set(id, list);
    else a.definers.delete(id);
  }
  for (const ref of doc.refs) {
    if (ref.kind === 'mention') unindex(a.mentioners, ref.id, doc.path);
    else unindex(a.linkers, ref.path, doc.path);
  }
  a.links.delete(doc.path);
  a.brokenDocs.delete(doc.path);
}

function attach(a: Assembly, w: Work, doc: ParsedDocument): void {
  for (const { id, definer } of definersOf(doc)) {
    noteDefiners(a, w, id);
    const list = a.definers.get(id);
    if (list) insertAt(list, definer, byTreeOrder);
    else a.definers.set(id, [definer]);
  }
  indexReferences(a, doc);
}

/** The folder a new document goes in, made (with the folders above it) when missing. */
function folderFor(a: Assembly, w: Work, path: string): Folder {
  let parent = a.root;
  for (const id of foldersOf(path)) {
    let folder = a.folders.get(id);
    if (!folder) {
      folder = newFolder(id, parent);
      a.folders.set(id, folder);
      insertAt(parent.folders, folder, byName);
      w.reordered.add(parent);
      w.folderChanges.add(id);
    }
    parent = folder;
  }
  return parent;
}

/** Takes a document out of its folder, and every folder left empty out of its parent. */
function leaveFolder(a: Assembly, w: Work, doc: ParsedDocument): void {
  let folder = a.folders.get(folderOfPath(doc.path));
  if (!folder) return;
  folder.docs.splice(folder.docs.indexOf(doc), 1);
  w.reordered.add(folder);
  while (folder.parent && folder.docs.length === 0 && folder.folders.length === 0) {
    const parent: Folder = folder.parent;
    parent.folders.splice(parent.folders.indexOf(folder), 1);
    a.folders.delete(folder.id);
    a.nodes.delete(folder.id);
    w.removedIds.add(folder.id);
    w.folderChanges.add(folder.id);
    w.reordered.add(parent);
    folder = parent;
  }
}

/** Applies one document's change to the folders and indexes. */
function applyDocument(a: Assembly, w: Work, path: string, doc: ParsedDocument | null): void {
  const old = a.docs.get(path);
  if (old) detach(a, w, old);
  if (old && doc) {
    // The same name keeps its place among its siblings.
    const folder = a.folders.get(folderOfPath(path)) as Folder;
    folder.docs[folder.docs.indexOf(old)] = doc;
  } else if (old) leaveFolder(a, w, old);
  if (doc) {
    if (!old) {
      const folder = folderFor(a, w, path);
      insertAt(folder.docs, doc, byDocumentName);
      w.reordered.add(folder);
    }
    a.docs.set(path, doc);
    attach(a, w, doc);
  } else a.docs.delete(path);
}

/** The documents whose links a change can reach. */
function toResolve(a: Assembly, w: Work, changedPaths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const addAll = (set: Set<string> | undefined) => {
    if (set) for (const p of set) out.add(p);
  };
  for (const path of changedPaths) {
    if (a.docs.has(path)) out.add(path);
    addAll(a.linkers.get(path));
  }
  for (const id of w.folderChanges) {
    addAll(a.linkers.get(id));
    addAll(a.linkers.get(id.slice(0, -1)));
  }
  for (const [id, before] of w.definersBefore) {
    if ((a.definers.get(id) ?? []).map((d) => d.id).join('\n') !== before) addAll(a.mentioners.get(id));
  }
  for (const p of [...out]) if (!a.docs.has(p)) out.delete(p);
  return out;
}

/**
 * Changes the assembly to the tree of its documents with `change` applied, and returns what may
 * differ; null (the assembly untouched) when the caller must assemble whole.
 */
export function reassemble(a: Assembly, change: AssemblyChange): AssemblyDelta | null {
  let size = a.docs.size;
  for (const [path, doc] of change.docs) {
    if (doc && doc.version !== PARSED_VERSION)
      throw new Error(
        `${doc.path} was parsed by parser version ${doc.version}, not ${PARSED_VERSION}: parse it again`,
      );
    if (doc && doc.path !== path) throw new Error(`${doc.path} was given as the document at ${path}`);
    const has = a.docs.has(path);
    if (doc && !has) size++;
    else if (!doc && has) size--;
  }
  if (a.skipped.length > 0 || size > MAX_DOCUMENTS || rootTitleOf(change.rootTitle) !== a.rootTitle)
    return null;

  // Paths whose standing changed: a document came, went or changed, or it became or stopped being another path.
  const changedPaths = new Set<string>(change.docs.keys());
  const others = new Set(change.otherPaths);
  for (const p of others) if (!a.otherPaths.has(p)) changedPaths.add(p);
  for (const p of a.otherPaths) if (!others.has(p)) changedPaths.add(p);
  a.otherPaths = others;

  const w: Work = {
    definersBefore: new Map(),
    reordered: new Set(),
    folderChanges: new Set(),
    removedIds: new Set(),
  };
  for (const [path, doc] of change.docs) applyDocument(a, w, path, doc);

  // Folders above a change, deepest first; those gone (no longer the assembly's) are left.
  const settle = new Set<Folder>();
  for (const path of change.docs.keys()) {
    settle.add(a.root);
    for (const id of foldersOf(path)) {
      const f = a.folders.get(id);
      if (f) settle.add(f);
    }
  }
  for (const f of [...settle].sort((x, y) => depthOf(y) - depthOf(x))) settleFolder(f);

  const lookup = lookupOf(a);
  const links = new Map<string, TreeLink[]>();
  for (const id of w.removedIds) links.set(id, []);
  const touchedDocs = new Set<ParsedDocument>();
  for (const path of toResolve(a, w, changedPaths)) {
    const doc = a.docs.get(path) as ParsedDocument;
    const resolved = resolveDocumentLinks(doc, lookup);
    a.links.set(path, resolved);
    if (resolved.broken.length > 0) a.brokenDocs.add(path);
    else a.brokenDocs.delete(path);
    for (const n of doc.nodes) links.set(n.id, resolved.outgoing.get(n.id) ?? []);
    touchedDocs.add(doc);
  }

  // The nodes that may differ: folders above a change, the children of folders that changed,
  // and the documents changed or resolved again.
  const nodes: TreeNode[] = [];
  const place = new Map<ParsedDocument | Folder, { parent: Folder; ordinal: number }>();
  for (const f of w.reordered) {
    if (a.folders.get(f.id) !== f) continue;
    for (const [i, sub] of f.folders.entries()) place.set(sub, { parent: f, ordinal: i });
    for (const [i, d] of f.docs.entries()) place.set(d, { parent: f, ordinal: f.folders.length + i });
  }
  for (const f of settle) place.set(f, { parent: f, ordinal: f.parent ? f.parent.folders.indexOf(f) : 0 });
  for (const path of change.docs.keys()) {
    const doc = a.docs.get(path);
    if (doc) touchedDocs.add(doc);
  }
  for (const doc of touchedDocs) {
    if (place.has(doc)) continue;
    const folder = a.folders.get(folderOfPath(doc.path)) as Folder;
    place.set(doc, { parent: folder, ordinal: folder.folders.length + folder.docs.indexOf(doc) });
  }
  for (const [item, at] of place) {
    if ('nodes' in item) {
      for (const n of documentNodes(item, at.parent.id, at.ordinal, a.links.get(item.path)?.totals)) {
        a.nodes.set(n.id, n);
        nodes.push(n);
      }
    } else if (a.folders.get(item.id) === item) {
      const n = folderNode(a, item, at.ordinal);
      a.nodes.set(n.id, n);
      nodes.push(n);
    }
  }
  const goneNodes = [...w.removedIds].filter((id) => !a.nodes.has(id));
  return { nodes, goneNodes, links, broken: brokenLinksOf(a) };
}
