/**
 * A whole build of the tree (docs/TREES.md): every document the repository has goes through
 * `indexablePath` (the never-indexed rules and the 2 MiB cap, by UTF-8 size), the indexed ones
 * through `parseDocument`, and all of them into `assembleTree`. The paths left out are known to
 * exist, so links to them are never broken.
 */
import { assembleTree } from './assemble.ts';
import { utf8Length } from './lines.ts';
import { parseDocument } from './parse.ts';
import type { ParsedDocument } from './parsed.ts';
import { indexablePath } from './paths.ts';
import type { BuiltTree, TreeDoc } from './types.ts';

export function buildTree(docs: TreeDoc[]): BuiltTree {
  const parsed: ParsedDocument[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const doc of docs) {
    const reason = indexablePath(doc.path, utf8Length(doc.text));
    if (reason) skipped.push({ path: doc.path, reason });
    else parsed.push(parseDocument(doc));
  }
  const tree = assembleTree(parsed, { otherPaths: skipped.map((s) => s.path) });
  tree.skipped = [...skipped, ...tree.skipped].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0,
  );
  return tree;
}
