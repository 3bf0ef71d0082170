import type { TransferableError } from '#shared/errors.ts';

export type ModelState = {
  status: 'on' | 'off' | 'downloading';
  modelId: string;
  reason?: string;
  progress?: number;
  dir?: string;
  /** The model the workspace chose, while another one still answers ([R8] in docs/RETRIEVAL.md). */
  pending?: string;
};

export type Embedder = {
  /** 'off' with a plain reason when the model is missing, failed to load or the worker died. */
  state(): ModelState;
  /** The id vectors are stored with; null while off. */
  modelId(): string | null;
  /** Batches of EMBED_BATCH, each text cut to EMBED_MAX_CHARS, mean pooled and L2-normalised. */
  embed(texts: string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
  close(): Promise<void>;
};

/** What the inference worker is started with. */
export type EmbedWorkerInput = { dir: string };

export type EmbedRequest = { type: 'embed'; id: number; texts: string[] };

export type EmbedReply =
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  /** fatal: the model could not be loaded (or is unusable), so every later request fails too. */
  | { type: 'failed'; id: number; fatal: boolean; error: TransferableError };

/** What the download worker is started with. */
export type DownloadWorkerInput = { modelId: string; cacheDir: string; remoteHost?: string };

export type DownloadReply =
  | { type: 'progress'; file: string; loaded: number; total: number }
  | { type: 'done' }
  | { type: 'failed'; error: TransferableError };
