/**
 * Canned answers for the component tests: a small workspace the shell can start on (app info, status,
 * settings, an empty inbox, no connected repository) and builders for the rows a test puts in front of a screen.
 */
import type { Inputs, Outputs } from '#shared/api/contract.ts';
import type { DuplicateCardView, EmptyPageCardView } from '#shared/api/ops/inbox.ts';
import type { FileList, FileRow, StatusView } from '#shared/api/types.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import type { Handlers } from './fake-transport.ts';

const AT = '2026-01-05T10:00:00.000Z';

export function fileRow(n: number, patch: Partial<FileRow> = {}): FileRow {
  return {
    id: `file-${n}`,
    label: `note-${String(n).padStart(2, '0')}.md`,
    path: `notes/note-${String(n).padStart(2, '0')}.md`,
    kind: 'markdown',
    format: 'md',
    size: 1200 + n,
    addedBy: 'ada',
    addedAt: AT,
    scope: 'org',
    state: 'added',
    reason: null,
    health: [],
    sections: 0,
    version: 1,
    ...patch,
  };
}

export function proposal(n: number, patch: Partial<ProposalView> = {}): ProposalView {
  return {
    id: `proposal-${n}`,
    runId: `run-${n}`,
    kind: 'rule',
    label: `Proposal ${n}`,
    body: `What run ${n} learned.`,
    scope: 'org',
    confidence: 0.6,
    sensitive: false,
    sensitiveReason: null,
    detected: [],
    decision: 'review',
    reason: 'low confidence',
    state: 'pending',
    itemId: null,
    edited: false,
    decidedBy: null,
    decidedAt: null,
    rejectReason: null,
    createdAt: AT,
    canDecide: true,
    run: null,
    ...patch,
  };
}

/** A pending Possible duplicate card (docs/FACTS.md [K12]) from source `file-<n>`, with two candidates. */
export function duplicateCard(n: number, patch: Partial<DuplicateCardView> = {}): DuplicateCardView {
  return {
    kind: 'duplicate',
    id: `card-${n}`,
    source: {
      id: `file-${n}`,
      label: `invoice-${n}.md`,
      storageKind: 'file',
      kind: 'markdown',
      scope: 'org',
    },
    scope: 'org',
    name: `Acme ${n}`,
    entityKind: 'company',
    candidates: [
      { id: `e_cand${n}a`, label: `Acme ${n} Ltd.`, scope: 'org', score: 0.82 },
      { id: `e_cand${n}b`, label: `Acme ${n} Group`, scope: 'org', score: 0.74 },
    ],
    facts: [
      {
        statement: `Acme ${n} supplies paper.`,
        attribute: null,
        validAt: null,
        quote: `Acme ${n} supplies paper.`,
      },
    ],
    state: 'pending',
    stale: null,
    canResolve: true,
    decision: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: AT,
    ...patch,
  };
}

/** An Empty page card (docs/FACTS.md [K13]) for entity `e_empty<n>`. */
export function emptyPageCard(n: number, patch: Partial<EmptyPageCardView> = {}): EmptyPageCardView {
  return {
    kind: 'empty-page',
    id: `empty:e_empty${n}@${AT}`,
    entity: {
      id: `e_empty${n}`,
      label: `Northwind ${n}`,
      storageKind: 'entity',
      kind: 'company',
      scope: 'org',
    },
    reason: 'sources-removed',
    why: `Its last source was removed: old-${n}.md.`,
    sources: [{ id: `file-old-${n}`, label: `old-${n}.md` }],
    claims: 1,
    changedAt: AT,
    canResolve: true,
    ...patch,
  };
}

export function status(patch: Partial<StatusView> = {}): StatusView {
  return {
    user: 'ada',
    workspace: 'ws-test',
    home: '/home/ada/.org-brain',
    scopes: ['org', 'user:ada'],
    counts: { files: 0, indexed: 0, notIndexed: 0, failed: 0, sections: 0, notes: 0, entities: 0 },
    queue: { queued: 0, running: 0 },
    model: { status: 'off', modelId: 'Xenova/all-MiniLM-L6-v2', reason: 'The model is not downloaded' },
    embeddingModels: [
      {
        choice: 'english',
        modelId: 'Xenova/all-MiniLM-L6-v2',
        name: 'English',
        about: 'English text; about 90 MB',
        downloaded: false,
        chosen: true,
      },
      {
        choice: 'multilingual',
        modelId: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2',
        name: 'Multilingual',
        about: 'more than 50 languages',
        downloaded: false,
        chosen: false,
      },
    ],
    chatModel: { status: 'off', reason: 'no chat model is configured' },
    ...patch,
  };
}

/** files.list over these rows: name filter, name sort, paging, facets; like the engine, minus the rest. */
export function listFiles(rows: readonly FileRow[]): (input: Inputs['files.list']) => FileList {
  return (input) => {
    const q = input.q?.trim().toLowerCase() ?? '';
    let found = rows.filter((r) => !q || r.label.toLowerCase().includes(q));
    if (input.states?.length) found = found.filter((r) => input.states?.includes(r.state));
    if (input.sort === 'name') {
      found = [...found].sort((a, b) => a.label.localeCompare(b.label) * (input.dir === 'desc' ? -1 : 1));
    }
    const offset = input.offset ?? 0;
    return {
      total: found.length,
      rows: found.slice(offset, offset + (input.limit ?? 200)),
      facets: {
        kinds: [...new Set(rows.map((r) => r.kind))],
        scopes: [...new Set(rows.map((r) => r.scope))],
      },
    };
  };
}

/** What the shell asks for as it starts (rail, status bar, settings), for a workspace with `files`. */
export function shellAnswers(files: readonly FileRow[] = []): Handlers {
  const counts = {
    files: files.length,
    indexed: files.filter((f) => f.state === 'indexed').length,
    notIndexed: files.filter((f) => f.state === 'added').length,
    failed: files.filter((f) => f.state === 'failed').length,
    sections: 0,
    notes: 0,
    entities: 0,
  };
  return {
    'app.info': () => ({
      name: 'Org Brain',
      version: '0.1.0',
      user: 'ada',
      home: '/home/ada/.org-brain',
      workspace: 'ws-test',
    }),
    'status.get': () => status({ counts }),
    'settings.get': () => ({
      indexOnAdd: false,
      ocrLanguages: ['eng'],
      ocrLanguagesAvailable: ['eng'],
      dataFolder: '/home/ada/.org-brain',
      user: 'ada',
    }),
    'backups.list': () => ({ backups: [], folder: '/home/ada/.org-brain/backups', keepDays: 7 }),
    'inbox.list': () => ({ pending: 0, items: [] }),
    'inbox.cards': () => ({
      counts: { duplicate: 0, emptyPage: 0 },
      pending: 0,
      total: 0,
      offset: 0,
      cards: [],
    }),
    'files.list': listFiles(files),
    // The palette lists the connected repositories when it opens (features/trees/use-node-lookup.ts).
    'trees.list': () => ({ trees: [] }),
  };
}

/** items.dossier for a file row: its facts and a short text. */
export function fileDossier(row: FileRow): Outputs['items.dossier'] {
  const item = {
    id: row.id,
    storageKind: 'file' as const,
    kind: row.kind,
    label: row.label,
    scope: row.scope,
    origin: { actor: row.addedBy, source: 'app', run: null, at: row.addedAt },
    occurredAt: null,
    dated: null,
    createdAt: row.addedAt,
    updatedAt: row.addedAt,
    version: row.version,
    retiredAt: null,
    indexed: row.state === 'indexed',
    size: row.size,
    format: row.format,
    path: row.path,
    health: row.health,
    reason: row.reason,
    locator: null,
  };
  return {
    item,
    file: item,
    outline: [],
    text: `The text of ${row.label}.`,
    textNote: null,
    highlight: null,
    citation: null,
  };
}
