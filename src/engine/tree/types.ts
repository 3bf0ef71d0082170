/**
 * Repository trees (docs/TREES.md): a model-free tree index of a connected Markdown repository
 * that people and agents read top-down, following summaries, citing line ranges that open on the
 * same lines in any Git viewer. These are the shapes the builder makes and the store keeps.
 *
 * The build is a pure function of the documents' bytes and their commit metadata: one document
 * parses alone (`parseDocument`), and the tree is assembled from the parsed documents
 * (`assembleTree`), so an incremental build re-parses only what changed and stores the same rows
 * as a whole build of the same commit.
 */

/** The last commit that changed a document (up to the indexed commit). */
export type Change = { commit: string; date: string; subject: string };

export type NodeKind = 'root' | 'folder' | 'document' | 'section' | 'card';

export type SummarySource =
  | 'front-matter'
  | 'text'
  | 'paragraph'
  | 'section'
  | 'fields'
  | 'list'
  | 'table'
  | 'diagram'
  | 'code'
  | 'facts'
  | 'readme'
  | 'children'
  | 'layout'
  | 'none';

/** A document as the builder reads it: its path in the repository (forward slashes), its text, its last change. */
export type TreeDoc = { path: string; text: string; changed: Change | null };

export type TreeNode = {
  /** `/` (root), `dir/sub/` (folder), `dir/file.md` (document), `dir/file.md#anchor` (section, card). */
  id: string;
  kind: NodeKind;
  /** The parent's id; null for the root. */
  parent: string | null;
  /** Position among its siblings (0-based): folders first, then documents (README/index first), by name; sections and cards in document order. */
  ordinal: number;
  /** The document's path ('' for the root, 'dir/' for a folder). */
  path: string;
  /** A section's slug or a card's reference id; null for other kinds. */
  anchor: string | null;
  title: string;
  /** At most 240 characters. */
  summary: string;
  summarySource: SummarySource;
  /**
   * Lines as Git counts them (a newline ends a line), 1-based, inclusive, in the document: where
   * the node starts, where its own text ends (before its first child) and where everything under
   * it ends. 0 for the root and folders.
   */
  lineStart: number;
  ownEnd: number;
  lineEnd: number;
  /** The size of everything under it, at about four characters per token. */
  tokens: number;
  /** A document's front matter status (superseded, deprecated…), lower case; null when none. */
  status: string | null;
  /** What a superseded document names as its replacement (front matter supersededBy / superseded_by). */
  supersededBy: string | null;
  /** The reference ids this node defines (a card's heading id, a document's front matter id). */
  refIds: string[];
  /** A document's last change; a folder's and the root's: the latest of what they hold; null for sections and cards. */
  changed: Change | null;
  /** All outgoing links it has (at most 50 are kept in `links`). */
  outgoingTotal: number;
};

export type TreeLink = {
  from: string;
  to: string;
  /** A Markdown link, or a mention of a reference id that one to three other nodes define. */
  kind: 'link' | 'mention';
  /** The line of the document where it is written. */
  line: number;
};

/** A link to a Markdown file the repository does not have: where it is, and the target as written. */
export type BrokenLink = { from: string; target: string };

export type BuiltTree = {
  nodes: TreeNode[];
  links: TreeLink[];
  broken: BrokenLink[];
  /** Documents left out, and why (too large, over the document cap). */
  skipped: { path: string; reason: string }[];
};
