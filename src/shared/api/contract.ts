/**
 * The BrainApi: every command the app may call, declared once. Inputs are zod schemas checked at
 * every boundary (Electron IPC, the browser host); outputs are the types in ./types.ts. Both
 * transports and the renderer's client are built from this one list.
 */
import { z } from 'zod';
import type { MembersResponse } from '../sync/protocol.ts';
import { entriesOf, type OutputsOf } from './operation.ts';
import { NOTE_OPERATIONS } from './ops/notes.ts';
import { RETRIEVAL_OPERATIONS } from './ops/retrieval.ts';
import type {
  ActivityEntry,
  AddReport,
  AppInfo,
  ChatSendResult,
  ChatThread,
  ChatThreadSummary,
  Dossier,
  DuplicatePair,
  EntitySummary,
  FileList,
  GraphView,
  Settings,
  StatusView,
  SyncConnectView,
  SyncStatusView,
  WatchedFolder,
} from './types.ts';
import type {
  ChatModelView,
  ConnectionTestView,
  InboxView,
  ProposalView,
  RunView,
} from './writeback-types.ts';

const id = z.string().min(1).max(200);
const scope = z.string().max(80).optional();
/** A character range in an item's text (a mention): the dossier highlights it. */
const span = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
  .strict()
  .refine((r) => r.end > r.start, 'end must be after start');
const STORAGE_KINDS = ['file', 'section', 'note', 'entity'] as const;
const filterList = z.array(z.string().max(80)).max(100).optional();

export const FILE_STATES = ['added', 'indexing', 'indexed', 'failed'] as const;
export const FILE_SORT_KEYS = ['name', 'kind', 'size', 'addedBy', 'addedAt', 'scope', 'state'] as const;

export const FilesListInput = z.object({
  q: z.string().max(200).optional(),
  kinds: z.array(z.string().max(40)).max(20).optional(),
  states: z.array(z.enum(FILE_STATES)).max(4).optional(),
  scopes: z.array(z.string().max(80)).max(50).optional(),
  sort: z.enum(FILE_SORT_KEYS).default('addedAt'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(200),
});

/**
 * Operations declared with their output schemas, for every surface (src/shared/api/operation.ts):
 * the CLI and MCP tools are derived from these too. The entries below them are the app's own,
 * moving into operations domain by domain.
 */
export const OPERATIONS = [...RETRIEVAL_OPERATIONS, ...NOTE_OPERATIONS] as const;

export const CONTRACT = {
  ...entriesOf(OPERATIONS),
  'app.info': { input: z.object({}).strict().optional(), mutates: false },
  'status.get': { input: z.object({}).strict().optional(), mutates: false },
  'files.list': { input: FilesListInput, mutates: false },
  /** Electron: files dropped from the OS arrive by path. (The browser host uploads bytes instead.) */
  'files.add': {
    input: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(10_000), scope }).strict(),
    mutates: true,
  },
  /** Queues indexing; progress arrives as `index.progress` events. No ids: every file not indexed. */
  'files.index': { input: z.object({ ids: z.array(id).max(100_000).optional() }).strict(), mutates: true },
  'items.dossier': { input: z.object({ id, at: span.optional() }).strict(), mutates: false },
  'chat.threads': { input: z.object({}).strict().optional(), mutates: false },
  'chat.thread': { input: z.object({ id }).strict(), mutates: false },
  'chat.send': {
    input: z
      .object({
        threadId: id.optional(),
        message: z.string().trim().min(1).max(8000),
        anchors: z.array(id).max(4).optional(),
      })
      .strict(),
    mutates: true,
  },
  'chat.delete': { input: z.object({ id }).strict(), mutates: true },
  'settings.get': { input: z.object({}).strict().optional(), mutates: false },
  'settings.set': { input: z.object({ indexOnAdd: z.boolean().optional() }).strict(), mutates: true },
  'watch.list': { input: z.object({}).strict().optional(), mutates: false },
  'watch.add': { input: z.object({ path: z.string().min(1).max(4096), scope }).strict(), mutates: true },
  'watch.remove': { input: z.object({ path: z.string().min(1).max(4096) }).strict(), mutates: true },
  'sample.load': { input: z.object({}).strict().optional(), mutates: true },
  'model.download': { input: z.object({}).strict().optional(), mutates: true },
  'activity.list': {
    input: z
      .object({ limit: z.number().int().min(1).max(500).default(100), before: z.number().int().optional() })
      .strict(),
    mutates: false,
  },
  /** Entities the user can see, with every alias; `q` matches any alias (case, accents, legal suffix ignored). */
  'entities.list': {
    input: z
      .object({ q: z.string().max(200).optional(), limit: z.number().int().min(1).max(5000).default(500) })
      .strict(),
    mutates: false,
  },
  /** Entities whose names are very close: offered for a person to join with SAME_AS, never merged. */
  'entities.duplicates': {
    input: z.object({ id: id.optional(), limit: z.number().int().min(1).max(500).default(100) }).strict(),
    mutates: false,
  },
  /** A person confirms two entities are the same: a soft SAME_AS edge; both stay as they are. */
  'entities.link': {
    input: z.object({ from: id, to: id, note: z.string().max(500).optional() }).strict(),
    mutates: true,
  },
  /**
   * The graph view: visible nodes and edges only (an edge when both ends are visible). Without
   * `around`, the best-connected `limit` nodes; with it, the neighborhood `hops` out. Sections are
   * folded into their files unless `storageKinds` asks for them.
   */
  'graph.get': {
    input: z
      .object({
        around: id.optional(),
        hops: z.number().int().min(1).max(3).default(1),
        limit: z.number().int().min(1).max(20_000).default(5000),
        storageKinds: z.array(z.enum(STORAGE_KINDS)).max(4).optional(),
        kinds: filterList,
        edgeTypes: filterList,
        scopes: filterList,
      })
      .strict(),
    mutates: false,
  },
  /** "Remember this": the thread so far becomes a run for the write-back pass (one pass per run). */
  'chat.remember': { input: z.object({ threadId: id }).strict(), mutates: true },
  /** The chat model (any OpenAI-compatible endpoint); the key is never returned, only whether one is set. */
  'chatModel.get': { input: z.object({}).strict().optional(), mutates: false },
  /** Sets base URL, model name and key; an empty string clears one. */
  'chatModel.set': {
    input: z
      .object({
        baseUrl: z.string().max(2000).optional(),
        model: z.string().max(200).optional(),
        key: z.string().max(4000).optional(),
      })
      .strict(),
    mutates: true,
  },
  'chatModel.test': { input: z.object({}).strict().optional(), mutates: false },
  /** Pending proposals the user can see (`all`: decided and skipped ones too), with the runs they came from. */
  'inbox.list': { input: z.object({ all: z.boolean().optional() }).strict().optional(), mutates: false },
  /** Approves a proposal, optionally edited: a note at the stored scope, traced to the run. */
  'inbox.approve': {
    input: z
      .object({ id, body: z.string().max(6000).optional(), label: z.string().max(300).optional() })
      .strict(),
    mutates: true,
  },
  'inbox.reject': {
    input: z.object({ id, reason: z.string().trim().min(1).max(1000) }).strict(),
    mutates: true,
  },
  /** Runs with their write-back outcome. */
  'runs.list': { input: z.object({}).strict().optional(), mutates: false },
  /** The connection to a workspace server (not connected: local only). */
  'sync.status': { input: z.object({}).strict().optional(), mutates: false },
  /** Redeems an invitation and connects this workspace to the server, then syncs once. */
  'sync.connect': {
    input: z.object({ url: z.string().url().max(2000), code: z.string().min(8).max(200) }).strict(),
    mutates: true,
  },
  /** One push/pull round now. */
  'sync.now': { input: z.object({}).strict().optional(), mutates: true },
  /** The workspace's members and teams (from the server). */
  'sync.members': { input: z.object({}).strict().optional(), mutates: false },
  /** Disconnects from the server; unsent changes are dropped. */
  'sync.leave': { input: z.object({}).strict().optional(), mutates: true },
} as const;

export type CommandName = keyof typeof CONTRACT;
export const COMMAND_NAMES = Object.keys(CONTRACT) as CommandName[];

/** What each command returns. */
export type Outputs = OutputsOf<typeof OPERATIONS> & {
  'app.info': AppInfo;
  'status.get': StatusView;
  'files.list': FileList;
  'files.add': AddReport;
  'files.index': { queued: number };
  'items.dossier': Dossier;
  'chat.threads': ChatThreadSummary[];
  'chat.thread': ChatThread;
  'chat.send': ChatSendResult;
  'chat.delete': { deleted: boolean };
  'settings.get': Settings;
  'settings.set': Settings;
  'watch.list': WatchedFolder[];
  'watch.add': WatchedFolder;
  'watch.remove': { removed: boolean };
  'sample.load': AddReport;
  'model.download': { started: boolean };
  'activity.list': ActivityEntry[];
  'entities.list': EntitySummary[];
  'entities.duplicates': DuplicatePair[];
  'entities.link': { id: string; type: string; from: string; to: string };
  'graph.get': GraphView;
  'chat.remember': { run: string; writeback: RunView['writeback']; created: boolean; modelOn: boolean };
  'chatModel.get': ChatModelView;
  'chatModel.set': ChatModelView;
  'chatModel.test': ConnectionTestView;
  'inbox.list': InboxView;
  'inbox.approve': ProposalView;
  'inbox.reject': ProposalView;
  'runs.list': RunView[];
  'sync.status': SyncStatusView;
  'sync.connect': SyncConnectView;
  'sync.now': SyncStatusView;
  'sync.members': MembersResponse;
  'sync.leave': { left: string | null; unsent: number };
};

export type Inputs = { [N in CommandName]: z.input<(typeof CONTRACT)[N]['input']> };
export type ParsedInputs = { [N in CommandName]: z.output<(typeof CONTRACT)[N]['input']> };

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.hasOwn(CONTRACT, value);
}
