/**
 * Links between nodes (docs/TREES.md), resolved over the whole tree from the references each
 * document made when it was parsed.
 *
 * - A link to a document is a link to its node; with a `#fragment`, to the section whose GitHub
 *   anchor it names, or the card it names by its id or by its heading's anchor (also a heading
 *   that is no node: the node holding it). Fragments match exactly, then ignoring case, then
 *   without GitHub's `user-content-` prefix; a fragment that names nothing still opens the
 *   document, as in a browser, so it links to the document.
 * - A link to a folder (`dir/`, `dir`, `../`) that the tree holds links to the folder node.
 * - A link to a Markdown file the repository does not have is `broken` ({ from: document path,
 *   target as written }, once per document and target, at most 5,000). A Markdown file the
 *   repository has but the tree does not hold (over the size or document cap, passed in as
 *   `otherPaths`) is neither; nor is a path the tree never indexes (restricted/, hidden folders,
 *   plugins/, scratch/, identifiers/), whose files the builder is not shown.
 * - Links to anything else (other files, outside the repository, URLs) are left out.
 * - A mention is a reference id written in a node that one to three *other* nodes define: one
 *   `mention` link to each of them. An id more nodes define says nothing precise and is ignored.
 * - A node's links are its distinct targets in document order (the first line each is written
 *   on); a mention of a node it also links to is dropped; a link to itself is left out. At most
 *   50 are kept; `outgoingTotal` is how many there are.
 */
import type { ParsedDocument } from './parsed.ts';
import { couldIndex, isMarkdownPath } from './paths.ts';
import type { BrokenLink, TreeLink } from './types.ts';

export const MAX_LINKS_PER_NODE = 50;
export const MAX_BROKEN = 5_000;
const MAX_MENTION_DEFINERS = 3;

type Anchors = { exact: Map<string, string>; lower: Map<string, string> };

function anchorsOf(doc: ParsedDocument): Anchors {
  const exact = new Map<string, string>();
  const lower = new Map<string, string>();
  for (const { anchor, node } of doc.anchors) {
    if (!exact.has(anchor)) exact.set(anchor, node);
    const key = anchor.toLowerCase();
    if (!lower.has(key)) lower.set(key, node);
  }
  return { exact, lower };
}

function anchorOf(anchors: Anchors, fragment: string): string | null {
  return anchors.exact.get(fragment) ?? anchors.lower.get(fragment.toLowerCase()) ?? null;
}

const USER_CONTENT = /^user-content-/i;

function findAnchor(anchors: Anchors, fragment: string): string | null {
  const hit = anchorOf(anchors, fragment);
  if (hit || !USER_CONTENT.test(fragment)) return hit;
  return anchorOf(anchors, fragment.replace(USER_CONTENT, ''));
}

/** The links of one document: by source node, how many each has, and its broken links (none left out). */
export type DocumentLinks = {
  outgoing: Map<string, TreeLink[]>;
  totals: Map<string, number>;
  broken: BrokenLink[];
};

/** What resolving a document's references looks up in the rest of the tree. */
export type LinkLookup = {
  /** The documents of the tree, by path. */
  docs: ReadonlyMap<string, ParsedDocument>;
  folders: { has(id: string): boolean };
  otherPaths: { has(path: string): boolean };
  definers: ReadonlyMap<string, readonly { id: string }[]>;
};

/** The anchors of each document, made once per document object (a build asks for the same ones often). */
const anchorCache = new WeakMap<ParsedDocument, Anchors>();

function anchorsFor(doc: ParsedDocument): Anchors {
  let anchors = anchorCache.get(doc);
  if (!anchors) {
    anchors = anchorsOf(doc);
    anchorCache.set(doc, anchors);
  }
  return anchors;
}

/**
 * One document's links, mentions and broken links against the rest of the tree. A document's
 * links depend only on its own references and on what they name (the documents, folders and other
 * paths at the paths they point to, and the definers of the ids they mention), which is what lets
 * an incremental assembly resolve again only the documents a change can reach (docs/TREES.md [T14]).
 */
export function resolveDocumentLinks(doc: ParsedDocument, input: LinkLookup): DocumentLinks {
  const broken: BrokenLink[] = [];
  const brokenSeen = new Set<string>();
  const perNode = new Map<string, { to: string; kind: 'link' | 'mention'; line: number }[]>();

  const add = (from: string, to: string, kind: 'link' | 'mention', line: number) => {
    if (from === to) return;
    let list = perNode.get(from);
    if (!list) {
      list = [];
      perNode.set(from, list);
    }
    list.push({ to, kind, line });
  };

  const linkTarget = (path: string, fragment: string | null): string | null => {
    if (path === '' || path.endsWith('/')) {
      const folder = path === '' ? '/' : path;
      return input.folders.has(folder) ? folder : null;
    }
    const target = input.docs.get(path);
    if (target) {
      if (!fragment) return target.path;
      return findAnchor(anchorsFor(target), fragment) ?? target.path;
    }
    return input.folders.has(`${path}/`) ? `${path}/` : null;
  };

  for (const ref of doc.refs) {
    if (ref.kind === 'mention') {
      const definers = input.definers.get(ref.id);
      if (!definers) continue;
      let others = 0;
      for (const n of definers) if (n.id !== ref.from) others++;
      if (others >= 1 && others <= MAX_MENTION_DEFINERS) {
        for (const to of definers) if (to.id !== ref.from) add(ref.from, to.id, 'mention', ref.line);
      }
      continue;
    }
    const to = linkTarget(ref.path, ref.fragment);
    if (to) {
      add(ref.from, to, 'link', ref.line);
      continue;
    }
    const missing =
      !ref.path.endsWith('/') &&
      isMarkdownPath(ref.path) &&
      couldIndex(ref.path) &&
      !input.otherPaths.has(ref.path);
    if (!missing) continue;
    const key = ref.target;
    if (brokenSeen.has(key)) continue;
    brokenSeen.add(key);
    broken.push({ from: doc.path, target: ref.target });
  }

  const outgoing = new Map<string, TreeLink[]>();
  const totals = new Map<string, number>();
  for (const [from, list] of perNode) {
    const only = list.length === 1 ? list[0] : undefined;
    if (only) {
      // One link: nothing to drop or order.
      totals.set(from, 1);
      outgoing.set(from, [{ from, to: only.to, kind: only.kind, line: only.line }]);
      continue;
    }
    const linked = new Set(list.filter((l) => l.kind === 'link').map((l) => l.to));
    const seen = new Set<string>();
    const distinct: TreeLink[] = [];
    for (const l of list) {
      if (l.kind === 'mention' && linked.has(l.to)) continue;
      const key = `${l.kind}\u0000${l.to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      distinct.push({ from, to: l.to, kind: l.kind, line: l.line });
    }
    // Document order: by line; on one line, in the order found.
    distinct.sort((a, b) => a.line - b.line);
    totals.set(from, distinct.length);
    outgoing.set(from, distinct.slice(0, MAX_LINKS_PER_NODE));
  }
  return { outgoing, totals, broken };
}

/** The broken links of the tree: each document's in path order, at most 5,000 in all. */
export function brokenOf(docs: Iterable<{ broken: readonly BrokenLink[] }>): BrokenLink[] {
  const out: BrokenLink[] = [];
  for (const d of docs) {
    for (const b of d.broken) {
      if (out.length >= MAX_BROKEN) return out;
      out.push(b);
    }
  }
  return out;
}
