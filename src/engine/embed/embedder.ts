import { DEFAULT_MODEL_ID, EMBED_BATCH, EMBED_MAX_CHARS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { downloadProgress } from './download.ts';
import {
  findModelDir,
  hasModelFiles,
  missingModelReason,
  modelDirCandidates,
  readModelId,
} from './model-dir.ts';
import type { Embedder, ModelState } from './types.ts';
import { type EmbedWorkerClient, startEmbedWorker } from './worker-client.ts';

export type EmbedderOptions = {
  home: string;
  /**
   * The model to embed with, or how to read it each time (the workspace's choice, which another
   * process may change: src/engine/embed/choice.ts). Ignored for the folder when `modelDir` is set.
   */
  modelId?: string | (() => string);
  modelDir?: string;
};

/** Cuts a text to EMBED_MAX_CHARS without splitting a surrogate pair. */
export function cutForEmbedding(text: string): string {
  if (text.length <= EMBED_MAX_CHARS) return text;
  const code = text.charCodeAt(EMBED_MAX_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? EMBED_MAX_CHARS - 1 : EMBED_MAX_CHARS;
  return text.slice(0, end);
}

export function createEmbedder(opts: EmbedderOptions): Embedder {
  const requested = (): string =>
    (typeof opts.modelId === 'function' ? opts.modelId() : opts.modelId) ?? DEFAULT_MODEL_ID;
  let failure: { reason: string; requested: string } | null = null;
  let client: EmbedWorkerClient | null = null;
  // Pinned when the worker starts: vectors must keep the id of the model that made them.
  let loaded: { dir: string; modelId: string; requested: string } | null = null;
  // Embeddings in flight: the model is never switched under one, so the id read right after an
  // embedding returns is the id of the model that made it.
  let inFlight = 0;
  let closed = false;

  // Looked up on every call while missing, so a model that arrives later (a download) is picked up.
  const locate = (modelId: string): string | null => {
    if (opts.modelDir) return hasModelFiles(opts.modelDir) ? opts.modelDir : null;
    return findModelDir({ home: opts.home, modelId });
  };
  const candidates = (modelId: string) =>
    opts.modelDir ? [opts.modelDir] : modelDirCandidates({ home: opts.home, modelId });

  /**
   * The workspace chose another model: once nothing is being embedded and the new model's files
   * are here, the old worker goes and the next embedding starts the new one. Until then the old
   * model keeps answering, so semantic search works while the new one downloads.
   */
  const follow = (): string => {
    const want = requested();
    if (failure && !closed && failure.requested !== want) failure = null;
    if (!loaded || loaded.requested === want || inFlight > 0 || opts.modelDir) return want;
    if (!locate(want)) return want;
    const replaced = client;
    client = null;
    loaded = null;
    void replaced?.close();
    return want;
  };

  const state = (): ModelState => {
    const want = follow();
    if (failure) return { status: 'off', modelId: want, reason: failure.reason };
    if (loaded) {
      // Chosen but not in use yet (downloading, or waiting for an embedding to finish).
      const progress = opts.modelDir ? undefined : downloadProgress(opts.home, want);
      const pending =
        loaded.requested === want ? {} : { pending: want, ...(progress === undefined ? {} : { progress }) };
      return { status: 'on', modelId: loaded.modelId, dir: loaded.dir, ...pending };
    }
    const dir = locate(want);
    if (dir) return { status: 'on', modelId: readModelId(dir, want), dir };
    const progress = opts.modelDir ? undefined : downloadProgress(opts.home, want);
    if (progress !== undefined) return { status: 'downloading', modelId: want, progress };
    return { status: 'off', modelId: want, reason: missingModelReason(candidates(want)) };
  };

  const ensureClient = (): EmbedWorkerClient => {
    const want = follow();
    if (client) return client;
    const current = state();
    if (current.status !== 'on' || !current.dir) {
      const reason = current.reason ?? 'the model is still downloading; keyword search still works';
      throw new AppError('engine-unavailable', reason, { status: current.status });
    }
    loaded = { dir: current.dir, modelId: current.modelId, requested: want };
    const started = startEmbedWorker(current.dir, (reason) => {
      // Only the worker in use can turn semantic search off; a replaced one stopping is expected.
      if (client === started) failure = { reason, requested: want };
    });
    client = started;
    return started;
  };

  const embed = async (texts: string[], onProgress?: (done: number, total: number) => void) => {
    if (texts.length === 0) return [];
    const worker = ensureClient();
    inFlight++;
    try {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += EMBED_BATCH) {
        const batch = texts.slice(start, start + EMBED_BATCH).map(cutForEmbedding);
        vectors.push(...(await worker.run(batch)));
        onProgress?.(vectors.length, texts.length);
      }
      return vectors;
    } finally {
      inFlight--;
    }
  };

  return {
    state,
    modelId: () => {
      const current = state();
      return current.status === 'on' ? current.modelId : null;
    },
    embed,
    embedQuery: async (text) => {
      const [vector] = await embed([text]);
      if (!vector) throw new AppError('internal', 'the embedding worker returned no vector');
      return vector;
    },
    close: async () => {
      closed = true;
      failure ??= { reason: 'the embedder was closed', requested: requested() };
      const closing = client;
      client = null;
      await closing?.close();
    },
  };
}
