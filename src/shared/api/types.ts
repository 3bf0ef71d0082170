/** The shapes the BrainApi returns. Plain data: structured-cloneable and JSON-safe. */
import type { Citation, Locator, SearchHit, StorageKind } from '../types.ts';

export type AppInfo = { name: string; version: string; user: string; home: string; workspace: string };

export type ModelView = {
  status: 'on' | 'off' | 'downloading';
  modelId: string;
  reason?: string;
  progress?: number;
};

export type StatusView = {
  user: string;
  home: string;
  scopes: string[];
  counts: {
    files: number;
    indexed: number;
    /** Added and waiting to be indexed (failed files are counted in `failed` only). */
    notIndexed: number;
    failed: number;
    sections: number;
    notes: number;
  };
  queue: { queued: number; running: number };
  model: ModelView;
  /** The chat model (a later release configures one); off means answers are the cited passages. */
  chatModel: { status: 'off'; reason: string };
};

export type FileState = 'added' | 'indexing' | 'indexed' | 'failed';

export type FileRow = {
  id: string;
  label: string;
  path: string | null;
  kind: string;
  format: string | null;
  size: number;
  addedBy: string;
  addedAt: string;
  scope: string;
  state: FileState;
  reason: string | null;
  health: string[];
  sections: number;
  version: number;
};

export type FileList = {
  total: number;
  rows: FileRow[];
  /** What the filters can offer, over the whole workspace the user can see (first page only: offset 0). */
  facets: { kinds: string[]; scopes: string[] };
};

export type AddReport = {
  added: { id: string; label: string; path: string }[];
  unchanged: { id: string; label: string; path: string }[];
  refused: { path: string; reason: string }[];
};

export type ItemView = {
  id: string;
  storageKind: StorageKind;
  kind: string;
  label: string;
  scope: string;
  origin: { actor: string; source: string; run: string | null; at: string };
  occurredAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  retiredAt: string | null;
  indexed: boolean;
  size: number | null;
  format: string | null;
  path: string | null;
  health: string[];
  reason: string | null;
  locator: Locator | null;
};

export type OutlineEntry = {
  id: string;
  label: string;
  ordinal: number;
  lineStart: number | null;
  page: number | null;
};

export type Dossier = {
  item: ItemView;
  /** The file a section belongs to (the item itself for a file). */
  file: ItemView | null;
  outline: OutlineEntry[];
  /** The whole text shown (a file's extracted text; a note's body). Always rendered as text. */
  text: string | null;
  /** Why there is no text (not indexed yet, stale, unreadable). */
  textNote: string | null;
  /** The cited range inside `text`, as character offsets, for a section. */
  highlight: { start: number; end: number } | null;
  citation: Citation | null;
};

export type ReadView = {
  id: string;
  label: string;
  text: string;
  lineStart: number;
  lineEnd: number;
  citation: Citation | null;
};

export type Passage = {
  itemId: string;
  label: string;
  text: string;
  /** Character ranges in `text` where the question's words occur. */
  highlights: { start: number; end: number }[];
  citation: Citation | null;
};

/** A memory the read injection used; anchors (items the turn pinned) have no search score. */
export type InjectedMemory = Pick<SearchHit, 'id' | 'label' | 'storageKind' | 'kind' | 'citation'> & {
  score: number | null;
};

export type ChatTurn = {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  at: string;
  /** Assistant turns: the memories the read injection used (numbered chips). */
  memories: InjectedMemory[];
  /** Why no memories were used (below the floor, nothing matched, search failed). */
  reason: string | null;
  /** No chat model: the answer is the cited passages themselves. */
  modelOff: boolean;
  passages: Passage[];
};

export type ChatThreadSummary = { id: string; title: string; updatedAt: string; turns: number };
export type ChatThread = ChatThreadSummary & { messages: ChatTurn[] };
export type ChatSendResult = { thread: ChatThreadSummary; user: ChatTurn; answer: ChatTurn };

export type Settings = { indexOnAdd: boolean; dataFolder: string; user: string };

export type WatchedFolder = {
  path: string;
  scope: string;
  addedAt: string;
  status: 'watching' | 'missing' | 'error';
  message: string | null;
  files: number;
};

export type ActivityItem = { id: string; label: string | null; score: number | null; isAnchor?: boolean };

/** One line of the Activity timeline: a search, an injection turn, a tool call, an add. */
export type ActivityEntry = {
  id: number;
  at: string;
  surface: string;
  user: string;
  event: string;
  summary: string;
  /** Injection turns: did the brain add anything, and the reason either way. */
  spoke?: boolean;
  reason?: string;
  query?: string;
  items?: ActivityItem[];
  tool?: string;
  ok?: boolean;
  ms?: number;
  data: Record<string, unknown>;
};
