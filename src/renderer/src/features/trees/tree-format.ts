/**
 * The shapes the Trees screen reads (from the contract, docs/TREES.md) and small pure formatters for
 * them: states, commits, counts, a node's last change and whether its document no longer holds.
 */
import type { Outputs } from '#shared/api/contract.ts';
import { plural } from '../../lib/format.ts';

export type TreeSource = Outputs['trees.list']['trees'][number];
export type TreeNode = Outputs['trees.tree']['node'];
export type TreeRead = Outputs['trees.read'];
export type TreeLink = TreeRead['outgoing'][number];
export type TreeState = TreeSource['state'];
export type TreeChanges = Outputs['trees.changes'];
export type ChangedDocument = TreeChanges['documents'][number];

export const STATE_LABELS: Record<TreeState, string> = {
  'not-built': 'Not built',
  queued: 'Queued',
  indexing: 'Indexing',
  ready: 'Ready',
  failed: 'Failed',
  off: 'Off',
};

/** The statuses that say a document no longer holds ([T8]); others (draft, accepted) are shown plainly. */
const INACTIVE = ['superseded', 'deprecated', 'rejected', 'retired', 'withdrawn', 'obsolete', 'replaced'];

export function isInactive(status: string | null): boolean {
  return status !== null && INACTIVE.includes(status.split(/\s+/, 1)[0]?.toLowerCase() ?? '');
}

/** A Git commit's first 7 characters; a plain folder's fingerprint (`folder:<hash>`) keeps its prefix. */
export function shortCommit(commit: string | null): string {
  if (!commit) return '—';
  if (commit.startsWith('folder:')) return `folder:${commit.slice(7, 15)}`;
  return commit.slice(0, 7);
}

/** "Changed 2026-11-03 · Fix the refund rule" (the date of the commit, as Git shows it). */
export function describeChange(changed: TreeNode['changed']): string | null {
  if (!changed) return null;
  const day = /^\d{4}-\d{2}-\d{2}/.exec(changed.date)?.[0] ?? changed.date;
  return changed.subject ? `Changed ${day} · ${changed.subject}` : `Changed ${day}`;
}

/** "42 documents · 6 folders · 310 sections · 3 broken links": what a build found, zeros left out. */
export function describeCounts(counts: TreeSource['counts']): string {
  const parts = [
    plural(counts.documents, 'document'),
    counts.folders ? plural(counts.folders, 'folder') : null,
    counts.sections ? plural(counts.sections, 'section') : null,
    counts.cards ? plural(counts.cards, 'card') : null,
    counts.links ? plural(counts.links, 'link') : null,
    counts.broken ? plural(counts.broken, 'broken link') : null,
    counts.skipped ? `${counts.skipped.toLocaleString()} skipped` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The last part of a repository's folder: its name in selectors and notices. */
export function repoName(root: string): string {
  return (
    root
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || root
  );
}

/** A tree's text can be read once a first build succeeded, unless the tree is turned off ([T11]). */
export function isReadable(source: TreeSource): boolean {
  return source.indexedCommit !== null && source.state !== 'off';
}

/** Why a tree cannot say what changed since a commit, or null when it can ([T11], [T13]). */
export function changesUnavailable(source: TreeSource): string | null {
  if (!source.isGit) return 'A plain folder has no history to compare.';
  if (source.remote)
    return `The history of ${source.createdBy}'s repository stays in their clone; connect a clone of your own to compare.`;
  return null;
}

/** Folders and the root have no text of their own and no backlinks. */
export function isFolderish(kind: TreeNode['kind']): boolean {
  return kind === 'root' || kind === 'folder';
}
