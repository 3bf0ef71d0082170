/** The shapes the BrainApi returns. Plain data: structured-cloneable and JSON-safe. */
import type { AlsoPassage, Citation, Locator, SearchHit, StorageKind } from '../types.ts';

export type AppInfo = { name: string; version: string; user: string; home: string; workspace: string };

type ModelView = {
  status: 'on' | 'off' | 'downloading';
  modelId: string;
  reason?: string;
  progress?: number;
  /** The model the workspace chose while another still answers (downloading, or switching). */
  pending?: string;
};

/** An embedding model the workspace can choose, and whether it is here to use. */
export type EmbeddingModelView = {
  choice: 'english' | 'multilingual';
  modelId: string;
  name: string;
  about: string;
  downloaded: boolean;
  chosen: boolean;
  /** The fraction (0-1) downloaded, while its download runs. */
  downloading?: number;
};

export type StatusView = {
  user: string;
  /** The workspace's id. */
  workspace: string;
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
    entities: number;
  };
  queue: { queued: number; running: number };
  model: ModelView;
  /** The embedding models to choose from (Settings → Semantic search). */
  embeddingModels: EmbeddingModelView[];
  /** The chat model (a later release configures one); off means answers are the cited passages. */
  chatModel: { status: 'on' | 'off'; reason: string; model?: string };
  /** The connection to a workspace server (absent: not reported). */
  sync?: SyncStatusView;
};

/** The connection to a workspace server, as the status bar and settings show it. */
export type SyncStatusView = {
  connected: boolean;
  server: string | null;
  user: string | null;
  isAdmin: boolean;
  workspace: string | null;
  /** Result of the last attempt: 'online', 'offline', or null before any. */
  state: 'online' | 'offline' | null;
  lastAttempt: string | null;
  lastSync: string | null;
  /** Local changes not yet sent to the server. */
  pending: number;
  cursor: number;
  lastError: string | null;
  /** Local changes that will not reach anyone (refused by the server, or not sendable): never silent. */
  refused: number;
  /** The latest of them: what it was and why. */
  lastRefused: { kind: string; ref: string; reason: string; at: string } | null;
  /** Pulled operations of kinds this version does not know (from a newer peer), kept aside. */
  setAside: number;
};

/** What connecting did: the member this replica now acts as and the first sync round's error, if any. */
export type SyncConnectView = {
  server: string;
  user: string;
  isAdmin: boolean;
  workspace: { id: string; name: string };
  /** The first round failed (the connection is kept; the next round retries). */
  syncError: string | null;
  status: SyncStatusView;
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
  /**
   * Files already here, in `scope`, added again asking for another scope (`asked`): they stay
   * where they are (src/shared/scope-kept.ts says so in words). Absent when no scope was asked for.
   */
  scopeKept?: { id: string; label: string; path: string; scope: string; asked: string }[];
};

export type ItemView = {
  id: string;
  storageKind: StorageKind;
  kind: string;
  label: string;
  scope: string;
  origin: { actor: string; source: string; run: string | null; at: string };
  occurredAt: string | null;
  /**
   * The date a file states about itself (front matter, PDF or Office metadata) and where it says
   * so; `occurredAt` is then that date. Null when it states none (its modified time stands).
   * Rule [R2] in docs/RETRIEVAL.md.
   */
  dated: { at: string; from: string } | null;
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
  /** A file read by OCR, its text layers ignored ("Read by OCR", docs/OCR.md [O9]); absent otherwise. */
  readByOcr?: true;
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
  /** An entity's page: names, facts, mentions, related entities, what is retired (entities only). */
  entity?: EntityDossier | null;
};

export type Passage = {
  itemId: string;
  label: string;
  text: string;
  /** Character ranges in `text` where the question's words occur. */
  highlights: { start: number; end: number }[];
  citation: Citation | null;
  /** A fact of an entity the question names (docs/FACTS.md [K15]); `citation` is its source's. */
  fact?: FactMemory;
};

/**
 * A current fact a chat turn was given (docs/FACTS.md [K15]): whose it is, what it states, and
 * where its first citation is (the source item and the range of its text that says it).
 */
export type FactMemory = {
  id: string;
  entityId: string;
  entity: string;
  statement: string;
  validAt: string;
  source: string;
  sourceLabel: string;
  span: { start: number; end: number } | null;
};

/** A memory the read injection used; anchors (items the turn pinned) have no search score. */
export type InjectedMemory = Pick<SearchHit, 'id' | 'label' | 'storageKind' | 'kind' | 'citation'> & {
  score: number | null;
  /** How many other passages of its source matched, and the best few of them. */
  more?: number;
  also?: AlsoPassage[];
  /** A fact of an entity the question names (docs/FACTS.md [K15]); `citation` is its source's. */
  fact?: FactMemory;
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
  /** No chat model (off, or it failed): the answer is the cited passages themselves. */
  modelOff: boolean;
  /** The chat model was asked and failed: its error (the passages are the answer). Null otherwise. */
  modelError: string | null;
  passages: Passage[];
};

export type ChatThreadSummary = { id: string; title: string; updatedAt: string; turns: number };
export type ChatThread = ChatThreadSummary & { messages: ChatTurn[] };
export type ChatSendResult = { thread: ChatThreadSummary; user: ChatTurn; answer: ChatTurn };

export type Settings = {
  indexOnAdd: boolean;
  /** What scans and pictures are read in (docs/OCR.md [O2]). */
  ocrLanguages: string[];
  /** The OCR languages whose data is installed: the only ones that can be chosen. */
  ocrLanguagesAvailable: string[];
  dataFolder: string;
  user: string;
};

export type WatchedFolder = {
  path: string;
  scope: string;
  addedAt: string;
  status: 'watching' | 'missing' | 'error';
  message: string | null;
  files: number;
};

type ActivityItem = { id: string; label: string | null; score: number | null; isAnchor?: boolean };

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

// ---- entities and the graph view (issue 7) ----

/** A short reference to an item, enough to name it and open its dossier. */
export type ItemRef = { id: string; label: string; storageKind: StorageKind; kind: string; scope: string };

export type EntitySummary = ItemRef & {
  /** Every name a source used for it, first seen first. */
  aliases: string[];
  /** Visible MENTIONS edges into it, and the distinct items they come from. */
  mentions: number;
  sources: number;
  /** Other faces and look-alikes it is joined to with a (soft) SAME_AS edge. */
  sameAs: number;
  updatedAt: string;
};

export type DuplicatePair = {
  a: ItemRef & { aliases: string[] };
  b: ItemRef & { aliases: string[] };
  /** 0..1, trigram similarity of the closest pair of normalised names. */
  similarity: number;
  reason: string;
};

export type PieceOrigin = { actor: string; source: string; run: string | null; at: string };

export type EntityMention = {
  edgeId: string;
  /** The name as the source wrote it. */
  name: string;
  item: ItemRef;
  /** The file a section belongs to. */
  file: ItemRef | null;
  /** Text around the mention; `match` is the mention itself. */
  snippet: { before: string; match: string; after: string };
  /** Character range of the mention in the item's text (open the dossier with `at`). */
  span: { start: number; end: number } | null;
  citation: Citation | null;
  origin: PieceOrigin;
};

export type EntityFact = {
  item: ItemRef;
  text: string;
  /** How it is tied to the entity: MENTIONS or a link type. */
  via: string;
  citation: Citation | null;
  origin: PieceOrigin;
  occurredAt: string | null;
};

export type RelatedEntity = {
  entity: ItemRef;
  /** SAME_AS, a custom link type, or CO_MENTIONED (named in the same item). */
  via: string;
  count: number;
  soft: boolean;
};

export type RetiredPiece = {
  item: ItemRef;
  what: 'mention' | 'fact' | 'link';
  retiredAt: string | null;
  /** The newer item that replaced it, when there is one the user can see. */
  replacement: ItemRef | null;
  origin: PieceOrigin;
};

export type EntityDossier = {
  aliases: { name: string; normalised: string }[];
  facts: EntityFact[];
  mentions: EntityMention[];
  related: RelatedEntity[];
  retired: RetiredPiece[];
  duplicates: DuplicatePair[];
  /** Counts before the lists were capped. */
  totals: { mentions: number; facts: number };
};

export type GraphNode = ItemRef & { degree: number };
export type GraphEdge = { id: string; type: string; from: string; to: string; count: number };

export type GraphView = {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** More nodes or edges exist than were sent. */
  truncated: boolean;
  /** What the filters can offer over everything the user can see. */
  facets: { storageKinds: StorageKind[]; kinds: string[]; edgeTypes: string[]; scopes: string[] };
};
