/**
 * Zod schemas of what the workspace's own operations answer (src/shared/api/ops/files.ts,
 * chat.ts, workspace.ts): the file list, a drop's report, indexing, chat threads and turns,
 * watched folders, the status and the model. The hand-written types of the app stay exactly what
 * the schemas check, both ways (checks below): a field left out here would be stripped from every
 * answer without a word.
 */
import { z } from 'zod';
import { AlsoPassageSchema, CitationSchema, StorageKindSchema } from './schemas.ts';
import { SyncStatusSchema } from './team-schemas.ts';
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

const FileRowSchema = z.object({
  id: z.string(),
  label: z.string(),
  path: z.string().nullable(),
  kind: z.string(),
  format: z.string().nullable(),
  size: z.number(),
  addedBy: z.string(),
  addedAt: z.string(),
  scope: z.string(),
  state: z.enum(['added', 'indexing', 'indexed', 'failed']),
  reason: z.string().nullable(),
  health: z.array(z.string()),
  sections: z.number(),
  version: z.number(),
});

export const FileListSchema = z.object({
  total: z.number(),
  rows: z.array(FileRowSchema),
  facets: z.object({ kinds: z.array(z.string()), scopes: z.array(z.string()) }),
});

const AddedFileSchema = z.object({ id: z.string(), label: z.string(), path: z.string() });

export const AddReportSchema = z.object({
  added: z.array(AddedFileSchema),
  unchanged: z.array(AddedFileSchema),
  refused: z.array(z.object({ path: z.string(), reason: z.string() })),
  scopeKept: z.array(AddedFileSchema.extend({ scope: z.string(), asked: z.string() })).optional(),
});

/**
 * What asking for indexing did. In a long-lived host the files are queued for its background
 * runner (progress arrives as `index.progress` events) and only `queued` is set; a one-shot
 * process (the command line) indexes them before it answers, with the outcome of each file.
 */
export const IndexAnswerSchema = z.object({
  queued: z.number(),
  /** Indexed before the answer (a one-shot process only), each with its sections. */
  indexed: z.array(z.object({ id: z.string(), label: z.string(), sections: z.number() })).optional(),
  failed: z.array(z.object({ id: z.string(), label: z.string(), reason: z.string() })).optional(),
  /** Items given vectors in this run that were indexed earlier without them. */
  embedded: z.number().optional(),
  /** Mentions of known entities the audit linked in the files just indexed. */
  mentions: z.number().optional(),
  /**
   * With `ocr` (docs/OCR.md [O9]): the files whose reading was set, `ocr` true for read by OCR
   * from now on, false for back to their text layer.
   */
  reading: z.array(z.object({ id: z.string(), label: z.string(), ocr: z.boolean() })).optional(),
});

/** What unlocking a password-protected file did: it is indexed, with its sections (files.unlock). */
export const UnlockAnswerSchema = z.object({
  id: z.string(),
  label: z.string(),
  sections: z.number(),
  /** Mentions of known entities the audit linked in the file. */
  mentions: z.number(),
});

/** Loading the sample: the drop's report, and what indexing it did (as files.index answers). */
export const SampleAnswerSchema = AddReportSchema.extend({ index: IndexAnswerSchema });

/** A current fact a chat turn was given (docs/FACTS.md [K15]). */
const FactMemorySchema = z.object({
  id: z.string(),
  entityId: z.string(),
  entity: z.string(),
  statement: z.string(),
  validAt: z.string(),
  source: z.string(),
  sourceLabel: z.string(),
  span: z.object({ start: z.number(), end: z.number() }).nullable(),
});

const InjectedMemorySchema = z.object({
  id: z.string(),
  label: z.string(),
  storageKind: StorageKindSchema,
  kind: z.string(),
  citation: CitationSchema.nullable(),
  score: z.number().nullable(),
  fact: FactMemorySchema.optional(),
  more: z.number().optional(),
  also: z.array(AlsoPassageSchema).optional(),
});

const PassageSchema = z.object({
  itemId: z.string(),
  label: z.string(),
  text: z.string(),
  highlights: z.array(z.object({ start: z.number(), end: z.number() })),
  citation: CitationSchema.nullable(),
  fact: FactMemorySchema.optional(),
});

const ChatTurnSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  at: z.string(),
  memories: z.array(InjectedMemorySchema),
  reason: z.string().nullable(),
  modelOff: z.boolean(),
  modelError: z.string().nullable(),
  passages: z.array(PassageSchema),
});

const ChatThreadSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  updatedAt: z.string(),
  turns: z.number(),
});

export const ChatThreadListSchema = z.object({ threads: z.array(ChatThreadSummarySchema) });
export const ChatThreadSchema = ChatThreadSummarySchema.extend({ messages: z.array(ChatTurnSchema) });
export const ChatSendSchema = z.object({
  thread: ChatThreadSummarySchema,
  user: ChatTurnSchema,
  answer: ChatTurnSchema,
});

export const WatchedFolderSchema = z.object({
  path: z.string(),
  scope: z.string(),
  addedAt: z.string(),
  status: z.enum(['watching', 'missing', 'error']),
  message: z.string().nullable(),
  files: z.number(),
});
export const WatchedFolderListSchema = z.object({ folders: z.array(WatchedFolderSchema) });

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  user: z.string(),
  home: z.string(),
  workspace: z.string(),
});

const ModelViewSchema = z.object({
  status: z.enum(['on', 'off', 'downloading']),
  modelId: z.string(),
  reason: z.string().optional(),
  progress: z.number().optional(),
  /** The model the workspace chose while another still answers (downloading, or switching). */
  pending: z.string().optional(),
});

export const StatusViewSchema = z.object({
  user: z.string(),
  workspace: z.string(),
  home: z.string(),
  scopes: z.array(z.string()),
  counts: z.object({
    files: z.number(),
    indexed: z.number(),
    notIndexed: z.number(),
    failed: z.number(),
    sections: z.number(),
    notes: z.number(),
    entities: z.number(),
  }),
  queue: z.object({ queued: z.number(), running: z.number() }),
  model: ModelViewSchema,
  embeddingModels: z.array(
    z.object({
      choice: z.enum(['english', 'multilingual']),
      modelId: z.string(),
      name: z.string(),
      about: z.string(),
      downloaded: z.boolean(),
      chosen: z.boolean(),
      downloading: z.number().optional(),
    }),
  ),
  chatModel: z.object({ status: z.enum(['on', 'off']), reason: z.string(), model: z.string().optional() }),
  sync: SyncStatusSchema.optional(),
});

/** Downloading the embedding model: started in the background (a host), or done (the command line). */
export const ModelDownloadSchema = z.object({
  started: z.boolean(),
  /** When it was waited for: where the model now is, and the state of semantic search. */
  dir: z.string().optional(),
  model: ModelViewSchema.optional(),
});

/** Switching the embedding model: the model now chosen, and how many items wait for its vectors. */
export const ModelUseSchema = z.object({
  modelId: z.string(),
  model: ModelViewSchema,
  toEmbed: z.number(),
});

type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type AppSchemaChecks = [
  Assignable<FileList, z.infer<typeof FileListSchema>>,
  Assignable<z.infer<typeof FileListSchema>, FileList>,
  Assignable<AddReport, z.infer<typeof AddReportSchema>>,
  Assignable<z.infer<typeof AddReportSchema>, AddReport>,
  Assignable<ChatThreadSummary, z.infer<typeof ChatThreadSummarySchema>>,
  Assignable<ChatThread, z.infer<typeof ChatThreadSchema>>,
  Assignable<z.infer<typeof ChatThreadSchema>, ChatThread>,
  Assignable<ChatSendResult, z.infer<typeof ChatSendSchema>>,
  Assignable<z.infer<typeof ChatSendSchema>, ChatSendResult>,
  Assignable<WatchedFolder, z.infer<typeof WatchedFolderSchema>>,
  Assignable<z.infer<typeof WatchedFolderSchema>, WatchedFolder>,
  Assignable<AppInfo, z.infer<typeof AppInfoSchema>>,
  Assignable<StatusView, z.infer<typeof StatusViewSchema>>,
  Assignable<z.infer<typeof StatusViewSchema>, StatusView>,
];
