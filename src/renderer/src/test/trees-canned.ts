/**
 * A connected repository for the Trees screen's component tests: a small support handbook (folders
 * first, a superseded document, a document with a section and a card, links and backlinks, a broken
 * link) and an engine that answers the trees.* operations over it the way src/engine/tree/reads.ts
 * does: one level a page, reads cut after a few lines with nextLine, lookups by id, path or
 * reference id, changes since EARLIER (or none since COMMIT).
 */
import type { Inputs, Outputs } from '#shared/api/contract.ts';
import { AppError } from '#shared/errors.ts';
import { shellAnswers } from './canned.ts';
import { type FakeTransport, fakeTransport } from './fake-transport.ts';

type Source = Outputs['trees.list']['trees'][number];
type TreeNode = Outputs['trees.tree']['node'];
type Link = Outputs['trees.read']['outgoing'][number];

const AT = '2026-11-03T13:12:00.000Z';
export const COMMIT = '9fceb02d0ae598e95dc970b74767f19372d61af8';
export const TREE_ID = 'tree_3f2a9c0d1e4b5a67';
/** The commit refunds-2019.md last changed in: what changed since it is CHANGES. */
export const EARLIER = 'b1946ac92492d2347c6235b4d2611184e1a7c3d5';

export function treeSource(patch: Partial<Source> = {}): Source {
  return {
    id: TREE_ID,
    root: '/home/ada/src/handbook',
    branch: 'main',
    isGit: true,
    scope: 'org',
    state: 'ready',
    indexedCommit: COMMIT,
    attemptedCommit: COMMIT,
    counts: { documents: 8, folders: 3, sections: 2, cards: 1, links: 6, broken: 1, skipped: 2 },
    leftOut: [
      { path: 'restricted/salaries.md', reason: 'under a restricted/ folder' },
      { path: 'scratch/notes.md', reason: 'under scratch/ at the root' },
    ],
    error: null,
    builtAt: AT,
    createdBy: 'ada',
    createdAt: AT,
    remote: false,
    waitingFor: null,
    ...patch,
  };
}

function node(id: string, kind: TreeNode['kind'], title: string, patch: Partial<TreeNode> = {}): TreeNode {
  const folderish = kind === 'root' || kind === 'folder';
  return {
    id,
    kind,
    title,
    summary: '',
    summarySource: folderish ? 'children' : 'paragraph',
    path: kind === 'root' ? '' : (id.split('#')[0] ?? id),
    lineStart: folderish ? 0 : 1,
    lineEnd: folderish ? 0 : 3,
    tokens: 120,
    status: null,
    supersededBy: null,
    changed: { commit: COMMIT, date: '2026-11-03T14:12:00+01:00', subject: 'Fix the refund rule' },
    children: 0,
    ...patch,
  };
}

const N = {
  root: node('/', 'root', 'handbook', { children: 4 }),
  docs: node('docs/', 'folder', 'docs', {
    summary: 'The refund policy and the decisions behind it.',
    children: 3,
  }),
  guides: node('guides/', 'folder', 'guides', { summary: 'How to handle escalations.', children: 1 }),
  readme: node('README.md', 'document', 'Support handbook', {
    summary: 'How the support team answers customers, and where the rules live.',
    children: 1,
    lineEnd: 6,
  }),
  old: node('refunds-2019.md', 'document', 'Refunds (2019)', {
    summary: 'Superseded by docs/refunds.md. Refunds were granted within 14 days of purchase.',
    status: 'superseded',
    supersededBy: 'docs/refunds.md',
    changed: {
      commit: EARLIER,
      date: '2019-04-01T09:00:00Z',
      subject: 'Add refunds',
    },
  }),
  adr: node('docs/adr/', 'folder', 'adr', { summary: 'ADR-001 · ADR-002', children: 2 }),
  refunds: node('docs/refunds.md', 'document', 'Refund policy', {
    summary: 'Customers get a refund within 30 days of purchase, once per order.',
    children: 2,
    lineEnd: 14,
  }),
  shipping: node('docs/shipping.md', 'document', 'Shipping', {
    summary: 'Parcels leave within two working days.',
  }),
  adr1: node('docs/adr/ADR-001.md', 'document', 'ADR-001 Refund window of 14 days', {
    summary: 'Superseded by ADR-002. A 14-day window kept claims low.',
    status: 'superseded',
    supersededBy: 'ADR-002',
  }),
  adr2: node('docs/adr/ADR-002.md', 'document', 'ADR-002 Refund window of 30 days', {
    summary: 'Decision: refunds within 30 days, as the law asks.',
    status: 'accepted',
  }),
  window: node('docs/refunds.md#refund-window', 'section', 'Refund window', {
    summary: 'A refund is granted within 30 days of purchase.',
    lineStart: 5,
    lineEnd: 9,
  }),
  card: node('docs/refunds.md#RULE-REF-0001', 'card', 'RULE-REF-0001 One refund per order', {
    summary: 'An order is refunded once; a second claim is escalated.',
    lineStart: 10,
    lineEnd: 14,
  }),
  start: node('README.md#where-to-start', 'section', 'Where to start', { lineStart: 3, lineEnd: 6 }),
  escalation: node('guides/escalation.md', 'document', 'Escalations', {
    summary: 'When a customer asks twice, a lead decides.',
    lineEnd: 4,
  }),
};

const NODES: Record<string, TreeNode> = Object.fromEntries(Object.values(N).map((n) => [n.id, n]));

const CHILDREN: Record<string, TreeNode[]> = {
  '/': [N.docs, N.guides, N.readme, N.old],
  'docs/': [N.adr, N.refunds, N.shipping],
  'docs/adr/': [N.adr1, N.adr2],
  'docs/refunds.md': [N.window, N.card],
  'guides/': [N.escalation],
  'README.md': [N.start],
};

const TEXT: Record<string, string[]> = {
  'docs/refunds.md': [
    '---',
    'title: Refund policy',
    '---',
    'Customers get a refund within 30 days of purchase, once per order.',
    '## Refund window',
    '',
    'A refund is granted within **30 days** of purchase.',
    'See [ADR-002](adr/ADR-002.md) for why.',
    "<script>alert('not for the page')</script>",
    '## RULE-REF-0001 One refund per order',
    '',
    'An order is refunded once; a second claim goes to [escalation](../guides/escalation.md).',
    '',
    'Owner: support-leads',
  ],
  'README.md': [
    '# Support handbook',
    '',
    '## Where to start',
    'Read the [refund policy](docs/refunds.md) first.',
    '',
    'Then the guides.',
  ],
  'guides/escalation.md': [
    '# Escalations',
    'When a customer asks twice, a lead decides.',
    'See [the refund window](../docs/refunds.md#refund-window).',
    'Old notes: [process](old-process.md).',
  ],
};

const link = (n: TreeNode, kind: Link['kind'], line: number): Link => ({
  node: n.id,
  title: n.title,
  kind,
  line,
});
const OUTGOING: Record<string, Link[]> = {
  'docs/refunds.md': [link(N.adr2, 'link', 8), link(N.escalation, 'link', 12)],
  'docs/refunds.md#refund-window': [link(N.adr2, 'link', 8)],
  'guides/escalation.md': [link(N.window, 'link', 3)],
};
const INCOMING: Record<string, Link[]> = {
  'docs/refunds.md': [link(N.start, 'link', 4)],
  'docs/refunds.md#refund-window': [link(N.escalation, 'link', 3)],
};
const BACKLINKS: Record<string, Outputs['trees.backlinks']['items']> = {
  'docs/refunds.md': [
    { node: 'README.md#where-to-start', target: 'docs/refunds.md', linkKind: 'link' },
    { node: 'guides/escalation.md', target: 'docs/refunds.md#refund-window', linkKind: 'link' },
  ],
};

/** Lines a read returns before it is cut (as the engine cuts at maxChars): 7. */
const READ_LINES = 7;

function find(id: string): TreeNode {
  const n = NODES[id];
  if (!n) throw new AppError('not-found', `No node ${id} in the tree of /home/ada/src/handbook.`);
  return n;
}

function crumbs(id: string): { id: string; title: string }[] {
  const out: { id: string; title: string }[] = [];
  let parent = Object.entries(CHILDREN).find(([, kids]) => kids.some((k) => k.id === id))?.[0];
  while (parent) {
    const p = find(parent);
    out.unshift({ id: p.id, title: p.title });
    const up = parent;
    parent = Object.entries(CHILDREN).find(([, kids]) => kids.some((k) => k.id === up))?.[0];
  }
  return out;
}

export function treeOf(input: Inputs['trees.tree']): Outputs['trees.tree'] {
  const n = find(input.node ?? '/');
  const all = CHILDREN[n.id] ?? [];
  const offset = input.offset ?? 0;
  const children = all.slice(offset, offset + (input.limit ?? 50));
  const next = offset + children.length;
  return {
    tree: TREE_ID,
    commit: COMMIT,
    node: n,
    breadcrumb: crumbs(n.id),
    children,
    total: all.length,
    offset,
    nextOffset: next < all.length ? next : null,
  };
}

export function readOf(input: Inputs['trees.read']): Outputs['trees.read'] {
  const n = find(input.node);
  const folderish = n.kind === 'root' || n.kind === 'folder';
  const lines = TEXT[n.path] ?? [`# ${n.title}`, '', n.summary];
  const from = input.fromLine ?? n.lineStart;
  const end = folderish ? 0 : Math.min(n.lineEnd, from + READ_LINES - 1);
  const truncated = !folderish && end < n.lineEnd;
  return {
    tree: TREE_ID,
    node: n,
    breadcrumb: crumbs(n.id),
    text: folderish ? '' : lines.slice(from - 1, end).join('\n'),
    lineNumbers: false,
    citation: { nodeId: n.id, path: n.path, lineStart: folderish ? 0 : from, lineEnd: end, commit: COMMIT },
    children: CHILDREN[n.id] ?? [],
    outgoing: OUTGOING[n.id] ?? [],
    outgoingTotal: (OUTGOING[n.id] ?? []).length,
    incoming: INCOMING[n.id] ?? [],
    truncated,
    nextLine: truncated ? end + 1 : null,
  };
}

function backlinksOf(input: Inputs['trees.backlinks']): Outputs['trees.backlinks'] {
  const n = find(input.node);
  if (n.kind === 'root' || n.kind === 'folder')
    throw new AppError(
      'validation-failed',
      `${n.id} is a folder: backlinks are of a page, a heading or a card.`,
    );
  const all = BACKLINKS[n.id] ?? [];
  const offset = input.offset ?? 0;
  const items = all.slice(offset, offset + (input.limit ?? 20));
  const next = offset + items.length;
  return {
    tree: TREE_ID,
    commit: COMMIT,
    items,
    total: all.length,
    offset,
    nextOffset: next < all.length ? next : null,
  };
}

function lookupOf(input: Inputs['trees.lookup']): Outputs['trees.lookup'] {
  const q = input.query.trim().replace(/^\/+/, '');
  const matches = Object.values(NODES)
    .filter(
      (n) =>
        n.id === q ||
        n.id === `${q}/` ||
        n.id.endsWith(`/${q}.md`) ||
        n.id.toLowerCase().endsWith(`#${q.toLowerCase()}`),
    )
    .map((n) => ({ node: n, breadcrumb: crumbs(n.id) }));
  return { tree: TREE_ID, commit: COMMIT, matches };
}

/** Since EARLIER: a modified document with a changed section and card, one of each other status. */
export const CHANGES: Outputs['trees.changes'] = {
  tree: TREE_ID,
  since: EARLIER,
  commit: COMMIT,
  documents: [
    { path: 'docs/refunds.md', status: 'modified', oldPath: null, linesAdded: 3, linesRemoved: 1 },
    { path: 'guides/escalation.md', status: 'added', oldPath: null, linesAdded: 4, linesRemoved: 0 },
    {
      path: 'docs/shipping.md',
      status: 'renamed',
      oldPath: 'docs/delivery.md',
      linesAdded: null,
      linesRemoved: null,
    },
    { path: 'docs/faq.md', status: 'deleted', oldPath: null, linesAdded: 0, linesRemoved: 12 },
  ],
  nodes: [
    { node: N.window.id, title: N.window.title, path: N.window.path },
    { node: N.card.id, title: N.card.title, path: N.card.path },
  ],
  linesKnown: true,
  truncated: false,
};

function changesOf(sources: Source[], input: Inputs['trees.changes']): Outputs['trees.changes'] {
  const s = sources.find((x) => x.id === (input.tree ?? TREE_ID)) ?? treeSource();
  if (!s.isGit)
    throw new AppError('unsupported', `${s.root} is a plain folder: it has no history to compare.`);
  if (s.remote)
    throw new AppError(
      'unsupported',
      `${s.root} is ${s.createdBy}'s repository: its history stays in their clone, so changes are read there (or connect a clone of your own).`,
    );
  if (EARLIER.startsWith(input.since)) return CHANGES;
  if (COMMIT.startsWith(input.since))
    return { ...CHANGES, since: COMMIT, documents: [], nodes: [], truncated: false };
  throw new AppError('not-found', `${s.root} has no commit ${input.since}.`);
}

/** An engine with the handbook connected (or `sources`, or none with []), answering every trees.* read. */
export function treesEngine(sources: Source[] = [treeSource()]): FakeTransport {
  const t = fakeTransport(shellAnswers());
  t.answer('trees.list', () => ({ trees: sources }));
  t.answer('trees.tree', treeOf);
  t.answer('trees.read', readOf);
  t.answer('trees.backlinks', backlinksOf);
  t.answer('trees.lookup', lookupOf);
  t.answer('trees.broken', () => ({
    tree: TREE_ID,
    branch: 'main',
    commit: COMMIT,
    links: [{ from: 'guides/escalation.md', target: 'guides/old-process.md' }],
    truncated: false,
  }));
  t.answer('trees.changes', (input) => changesOf(sources, input));
  t.answer('trees.rebuild', (input) => ({ ...treeSource(), id: input.tree ?? TREE_ID }));
  t.answer('trees.disconnect', (input) => ({ disconnected: input.tree ?? TREE_ID }));
  return t;
}
