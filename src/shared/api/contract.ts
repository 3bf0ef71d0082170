/**
 * The BrainApi: every command the app may call, declared once. Inputs are zod schemas checked at
 * every boundary (Electron IPC, the browser host); outputs are the types in ./types.ts. Both
 * transports and the renderer's client are built from this one list.
 */
import { z } from 'zod';
import { entriesOf, type OutputsOf } from './operation.ts';
import { GRAPH_OPERATIONS } from './ops/graph.ts';
import { INBOX_OPERATIONS } from './ops/inbox.ts';
import { KNOWLEDGE_OPERATIONS } from './ops/knowledge.ts';
import { NOTE_OPERATIONS } from './ops/notes.ts';
import { RETRIEVAL_OPERATIONS } from './ops/retrieval.ts';
import { SETTINGS_OPERATIONS } from './ops/settings.ts';
import { TEAM_OPERATIONS } from './ops/team.ts';
import type {
  AddReport,
  AppInfo,
  ChatSendResult,
  ChatThread,
  ChatThreadSummary,
  FileList,
  StatusView,
  WatchedFolder,
} from './types.ts';
import type { RunView } from './writeback-types.ts';

const id = z.string().min(1).max(200);
const scope = z.string().max(80).optional();
/** A character range in an item's text (a mention): the dossier highlights it. */
const _span = z
  .object({ start: z.number().int().min(0), end: z.number().int().min(1) })
  .strict()
  .refine((r) => r.end > r.start, 'end must be after start');
const _STORAGE_KINDS = ['file', 'section', 'note', 'entity'] as const;
const _filterList = z.array(z.string().max(80)).max(100).optional();

const FILE_STATES = ['added', 'indexing', 'indexed', 'failed'] as const;
const FILE_SORT_KEYS = ['name', 'kind', 'size', 'addedBy', 'addedAt', 'scope', 'state'] as const;

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
 * the CLI and MCP tools are derived from these too. The entries below them are the app's own
 * (files, chat, watched folders, the sample, the model), still to become operations.
 */
export const OPERATIONS = [
  ...RETRIEVAL_OPERATIONS,
  ...NOTE_OPERATIONS,
  ...GRAPH_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...KNOWLEDGE_OPERATIONS,
  ...TEAM_OPERATIONS,
  ...SETTINGS_OPERATIONS,
] as const;

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
  'watch.list': { input: z.object({}).strict().optional(), mutates: false },
  'watch.add': { input: z.object({ path: z.string().min(1).max(4096), scope }).strict(), mutates: true },
  'watch.remove': { input: z.object({ path: z.string().min(1).max(4096) }).strict(), mutates: true },
  'sample.load': { input: z.object({}).strict().optional(), mutates: true },
  'model.download': { input: z.object({}).strict().optional(), mutates: true },
  /** "Remember this": the thread so far becomes a run for the write-back pass (one pass per run). */
  'chat.remember': { input: z.object({ threadId: id }).strict(), mutates: true },
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
  'chat.threads': ChatThreadSummary[];
  'chat.thread': ChatThread;
  'chat.send': ChatSendResult;
  'chat.delete': { deleted: boolean };
  'watch.list': WatchedFolder[];
  'watch.add': WatchedFolder;
  'watch.remove': { removed: boolean };
  'sample.load': AddReport;
  'model.download': { started: boolean };
  'chat.remember': { run: string; writeback: RunView['writeback']; created: boolean; modelOn: boolean };
};

export type Inputs = { [N in CommandName]: z.input<(typeof CONTRACT)[N]['input']> };
export type ParsedInputs = { [N in CommandName]: z.output<(typeof CONTRACT)[N]['input']> };

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.hasOwn(CONTRACT, value);
}
