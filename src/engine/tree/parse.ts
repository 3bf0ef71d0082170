/**
 * One document alone (docs/TREES.md): `parseDocument` makes its document node, its section and
 * card nodes, their titles, line ranges, sizes and own summaries, the reference ids it defines,
 * the anchors a link can name in it, and the links and mentions it makes. Pure: the same
 * document gives the same ParsedDocument, whatever else the repository holds.
 *
 * Choices where the seed is silent:
 * - the document's title heading: when a document has exactly one top-level `#` heading and it is
 *   its first heading, that heading is the document's own (GitHub shows it as the page title): it
 *   makes no section, the document's own text runs past it, its anchor names the document, and
 *   when it starts with a reference id the document defines that id (the document is the card);
 * - a card whose id an earlier card of the same document already took is anchored by its heading
 *   slug (ids stay unique) and still defines the id;
 * - an empty document has no lines: its lines are 0, 0, 0 like a folder's;
 * - titles are cut like summaries (240 characters); anchors are GitHub's slugs (of a heading's
 *   first 1,000 characters);
 * - a file name title is the name as written, `.md` included (`review-rules.md`);
 * - a heading with no text is titled `(untitled)`; its anchor is GitHub's (empty, then `-1`…);
 * - mentions in front matter are not read (its `id` defines, it does not mention).
 */
import { readFrontMatter } from './frontmatter.ts';
import { charsOfLines, gitLineCount, lineStarts } from './lines.ts';
import { type Block, type Heading, scanMarkdown } from './markdown.ts';
import {
  PARSED_VERSION,
  type ParsedAnchor,
  type ParsedDocument,
  type ParsedNode,
  type ParsedRef,
} from './parsed.ts';
import { baseName, resolveLink } from './paths.ts';
import { cut, documentSummary, type SectionForSummary, sectionSummary, withStatus } from './summary.ts';
import type { TreeDoc } from './types.ts';

/** A document has at most this many headings; later ones stay text of the node before them. */
export const MAX_HEADINGS = 2_000;

/**
 * Anchors kept for headings that are no node (inside lists and quotes, or past the heading cap):
 * past these, a link to such an anchor opens the document, as any unknown anchor does.
 */
const MAX_ALIASES = 2_000;

const UNTITLED = '(untitled)';

/** The body markdown-it reads: BOM dropped, front matter blanked (its lines kept), lone CRs made spaces. */
function bodyOf(text: string, frontMatterLines: number): string {
  let body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (frontMatterLines > 0) {
    let at = 0;
    for (let i = 0; i < frontMatterLines && at >= 0; i++) {
      const nl = body.indexOf('\n', at);
      at = nl < 0 ? body.length : nl + 1;
    }
    body = '\n'.repeat(frontMatterLines) + body.slice(at);
  }
  // Git ends a line only at \n, CommonMark at a lone \r too: a lone \r would shift every line after it.
  return body.includes('\r') ? body.replace(/\r(?!\n)/g, ' ') : body;
}

type Draft = ParsedNode & { level: number; blocks: Block[]; children: ParsedNode[] };

/** The node of each line: the last node starting at or before it. */
function nodeFinder(nodes: Draft[]): (line: number) => Draft {
  return (line) => {
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nodes[mid]!.lineStart <= line) lo = mid;
      else hi = mid - 1;
    }
    return nodes[lo]!;
  };
}

export function parseDocument(doc: TreeDoc): ParsedDocument {
  const { path, text } = doc;
  const lineCount = gitLineCount(text);
  const starts = lineStarts(text);
  const bom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const fm = readFrontMatter(bom);
  const scan = scanMarkdown(bodyOf(text, fm.lines), MAX_HEADINGS);
  const headings = scan.headings;

  const topLevel = headings.filter((h) => h.level === 1);
  const single = topLevel.length === 1 ? topLevel[0]! : null;
  const titleHeading: Heading | null = single && headings[0] === single ? single : null;
  const title = cut(fm.title ?? (single?.text || null) ?? fm.name ?? baseName(path));

  const docRefIds: string[] = [];
  if (fm.id) docRefIds.push(fm.id);
  if (titleHeading?.refId && !docRefIds.includes(titleHeading.refId)) docRefIds.push(titleHeading.refId);

  const first = lineCount > 0 ? 1 : 0;
  const document: Draft = {
    id: path,
    kind: 'document',
    parent: null,
    ordinal: 0,
    anchor: null,
    title: title || UNTITLED,
    summary: '',
    summarySource: 'none',
    lineStart: first,
    ownEnd: lineCount,
    lineEnd: lineCount,
    chars: text.length,
    status: fm.status,
    supersededBy: fm.supersededBy,
    refIds: docRefIds,
    level: 0,
    blocks: [],
    children: [],
  };
  const nodes: Draft[] = [document];
  const anchors: ParsedAnchor[] = [];
  if (titleHeading) {
    anchors.push({ anchor: titleHeading.slug, node: path });
    if (titleHeading.refId) anchors.push({ anchor: titleHeading.refId, node: path });
  }

  // Sections and cards, their parents and line ranges.
  const usedIds = new Set<string>();
  const stack: Draft[] = [document];
  for (const heading of headings) {
    if (heading === titleHeading) continue;
    while (stack.length > 1 && stack[stack.length - 1]!.level >= heading.level) {
      stack.pop()!.lineEnd = heading.line - 1;
    }
    const parent = stack[stack.length - 1]!;
    const card = heading.refId !== null;
    const anchor = card && !usedIds.has(heading.refId!) ? heading.refId! : heading.slug;
    if (card) usedIds.add(heading.refId!);
    const node: Draft = {
      id: `${path}#${anchor}`,
      kind: card ? 'card' : 'section',
      parent: parent.id,
      ordinal: parent.children.length,
      anchor,
      title: cut(heading.text) || UNTITLED,
      summary: '',
      summarySource: 'none',
      lineStart: heading.line,
      ownEnd: lineCount,
      lineEnd: lineCount,
      chars: 0,
      status: null,
      supersededBy: null,
      refIds: card ? [heading.refId!] : [],
      level: heading.level,
      blocks: [],
      children: [],
    };
    const previous = nodes[nodes.length - 1]!;
    previous.ownEnd = heading.line - 1;
    parent.children.push(node);
    nodes.push(node);
    stack.push(node);
    anchors.push({ anchor, node: node.id });
    if (anchor !== heading.slug) anchors.push({ anchor: heading.slug, node: node.id });
  }
  for (const node of nodes) {
    if (node.kind !== 'document') node.chars = charsOfLines(starts, node.lineStart, node.lineEnd);
  }

  const nodeAt = nodeFinder(nodes);
  for (const alias of scan.aliases.slice(0, MAX_ALIASES)) {
    anchors.push({ anchor: alias.slug, node: nodeAt(alias.line).id });
  }
  for (const block of scan.blocks) nodeAt(block.line).blocks.push(block);

  // Summaries: sections and cards first (deepest first), then the document, which may use them.
  for (let i = nodes.length - 1; i >= 1; i--) {
    const node = nodes[i]!;
    Object.assign(
      node,
      sectionSummary(
        node.blocks,
        node.children.map((c) => c.title),
      ),
    );
  }
  const sections: SectionForSummary[] = nodes.slice(1).map((n) => ({
    title: n.title,
    summary: { summary: n.summary, summarySource: n.summarySource },
    topLevel: n.parent === path,
  }));
  const own = documentSummary({
    frontMatterSummary: fm.summary,
    blocks: document.blocks,
    sections,
    facts: fm.facts,
    childTitles: document.children.map((c) => c.title),
  });
  Object.assign(document, withStatus(own, fm.status, fm.supersededBy));

  // References, in the order found; one per node and id or written target (the first: a tree
  // link is one per source and target, at the first line it is written on).
  const refs: ParsedRef[] = [];
  const seen = new Set<string>();
  for (const raw of scan.refs) {
    const from = nodeAt(raw.line).id;
    const key = `${from}\u0000${raw.kind}\u0000${raw.kind === 'mention' ? raw.id : raw.href}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (raw.kind === 'mention') {
      refs.push({ kind: 'mention', from, line: raw.line, id: raw.id });
      continue;
    }
    const target = resolveLink(path, raw.href);
    if (!target) continue;
    refs.push({
      kind: 'link',
      from,
      line: raw.line,
      target: raw.href,
      path: target.path,
      fragment: target.fragment,
    });
  }

  return {
    version: PARSED_VERSION,
    path,
    changed: doc.changed
      ? { commit: doc.changed.commit, date: doc.changed.date, subject: doc.changed.subject }
      : null,
    lineCount,
    chars: text.length,
    nodes: nodes.map(
      ({ level: _level, blocks: _blocks, children: _children, ...node }): ParsedNode => ({
        ...node,
        refIds: [...node.refIds],
      }),
    ),
    anchors,
    refs,
  };
}
