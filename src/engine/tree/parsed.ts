/**
 * What `parseDocument` makes of one document alone (docs/TREES.md): everything `assembleTree`
 * needs, so the assembly never reads the text again and an incremental build can store it and
 * assemble the tree from stored documents and re-parsed ones alike. Plain JSON: no Maps, no
 * undefined, no non-finite numbers, so a JSON round trip gives the same tree.
 */
import type { Change, SummarySource } from './types.ts';

/** Bumped whenever what `parseDocument` makes changes: a stored ParsedDocument of another version is parsed again. */
export const PARSED_VERSION = 2;

/** A document, section or card node as one document defines it. */
export type ParsedNode = {
  id: string;
  kind: 'document' | 'section' | 'card';
  /** The section or document above it; null for the document (its folder is the assembly's). */
  parent: string | null;
  /** Among its siblings in the document; 0 for the document (the assembly places it). */
  ordinal: number;
  anchor: string | null;
  title: string;
  summary: string;
  summarySource: SummarySource;
  lineStart: number;
  ownEnd: number;
  lineEnd: number;
  /** Characters of everything under it (its lines); tokens are these over four. */
  chars: number;
  status: string | null;
  supersededBy: string | null;
  refIds: string[];
};

/** A Markdown link to a place in the repository (links out of it are not kept). */
type ParsedLink = {
  kind: 'link';
  /** The node whose text holds it. */
  from: string;
  line: number;
  /** The destination as written (Markdown escapes undone). */
  target: string;
  /** The repository path it resolves to (a folder's ends with `/`; '' is the root folder). */
  path: string;
  /** The `#fragment`, percent-decoded; null when none. */
  fragment: string | null;
};

/** A word that could be a mention of a reference id: the first in its node (one per node and id). */
type ParsedMention = { kind: 'mention'; from: string; line: number; id: string };

export type ParsedRef = ParsedLink | ParsedMention;

/** An anchor a link can name in the document (a slug, a card's id, a heading that is no node) and its node. */
export type ParsedAnchor = { anchor: string; node: string };

export type ParsedDocument = {
  version: typeof PARSED_VERSION;
  path: string;
  changed: Change | null;
  /** Lines as Git counts them. */
  lineCount: number;
  /** The whole text's length in characters (front matter included). */
  chars: number;
  /** The document node first, then its sections and cards in document order. */
  nodes: ParsedNode[];
  anchors: ParsedAnchor[];
  /** Links and mentions in the order they were found (document order). */
  refs: ParsedRef[];
};
