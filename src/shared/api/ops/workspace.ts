/**
 * The workspace as a whole: what the app is, the status (who acts, what is held, the queue, the
 * models, the connection), the folders the app watches and the embedding model's download.
 * Declared once (src/shared/api/operation.ts). `brain status` and `brain model download` are the
 * command line's; watched folders belong to a host that stays up to watch them (the app, `brain
 * serve`), so the one-shot command line does not offer them; agents get none of these (`notOn`).
 */
import { z } from 'zod';
import { EMBEDDING_MODEL_CHOICES, type EmbeddingModelChoice } from '../../constants.ts';
import {
  AppInfoSchema,
  ModelDownloadSchema,
  ModelUseSchema,
  StatusViewSchema,
  WatchedFolderListSchema,
  WatchedFolderSchema,
} from '../app-schemas.ts';
import { defineOperation, type Surface } from '../operation.ts';

const WORKSPACE_LIMITS = { pathChars: 4096, scopeChars: 80 } as const;
const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];
/** Only a host that stays up has windows to tell, or folders to keep watching. */
const HOSTS_ONLY: readonly Surface[] = ['agent', 'cli'];
const nothing = z.object({}).strict();
const folder = z.string().min(1).max(WORKSPACE_LIMITS.pathChars);

export const AppInfoGet = defineOperation({
  name: 'app.info',
  summary: 'The app: its name and version, who acts, the data folder and the workspace',
  input: nothing,
  output: AppInfoSchema,
  mutates: false,
  notOn: HOSTS_ONLY,
});

export const StatusGet = defineOperation({
  name: 'status.get',
  summary: 'Who is acting, what the workspace holds, the queue, the models and the connection',
  input: nothing,
  output: StatusViewSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const WatchList = defineOperation({
  name: 'watch.list',
  summary: 'The folders the app watches, with their state',
  input: nothing,
  output: WatchedFolderListSchema,
  mutates: false,
  notOn: HOSTS_ONLY,
});

export const WatchAdd = defineOperation({
  name: 'watch.add',
  summary: 'Watch a folder: its files are added now and whenever they change',
  input: z.object({ path: folder, scope: z.string().max(WORKSPACE_LIMITS.scopeChars).optional() }).strict(),
  output: WatchedFolderSchema,
  mutates: true,
  notOn: HOSTS_ONLY,
});

export const WatchRemove = defineOperation({
  name: 'watch.remove',
  summary: 'Stop watching a folder (its files stay)',
  input: z.object({ path: folder }).strict(),
  output: z.object({ removed: z.boolean() }),
  mutates: true,
  notOn: HOSTS_ONLY,
});

const modelChoice = z.enum(EMBEDDING_MODEL_CHOICES as [EmbeddingModelChoice, ...EmbeddingModelChoice[]]);

export const ModelDownload = defineOperation({
  name: 'model.download',
  summary:
    'Download an embedding model once into the workspace (needs the network); naming one switches the workspace to it when it is here',
  input: z.object({ model: modelChoice.optional() }).strict(),
  output: ModelDownloadSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const ModelUse = defineOperation({
  name: 'model.use',
  summary:
    'Switch the embedding model (english or multilingual); what was embedded with the other is embedded again in the background',
  input: z.object({ model: modelChoice }).strict(),
  output: ModelUseSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const WORKSPACE_OPERATIONS = [
  AppInfoGet,
  StatusGet,
  WatchList,
  WatchAdd,
  WatchRemove,
  ModelDownload,
  ModelUse,
] as const;
