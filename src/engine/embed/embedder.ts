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

export type EmbedderOptions = { home: string; modelId?: string; modelDir?: string };

/** Cuts a text to EMBED_MAX_CHARS without splitting a surrogate pair. */
export function cutForEmbedding(text: string): string {
  if (text.length <= EMBED_MAX_CHARS) return text;
  const code = text.charCodeAt(EMBED_MAX_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? EMBED_MAX_CHARS - 1 : EMBED_MAX_CHARS;
  return text.slice(0, end);
}

export function createEmbedder(opts: EmbedderOptions): Embedder {
  const requested = opts.modelId ?? DEFAULT_MODEL_ID;
  let failure: string | null = null;
  let client: EmbedWorkerClient | null = null;
  // Pinned when the worker starts: vectors must keep the id of the model that made them.
  let loaded: { dir: string; modelId: string } | null = null;

  // Looked up on every call while missing, so a model that arrives later (a download) is picked up.
  const locate = (): string | null => {
    if (opts.modelDir) return hasModelFiles(opts.modelDir) ? opts.modelDir : null;
    return findModelDir({ home: opts.home, modelId: requested });
  };
  const candidates = () =>
    opts.modelDir ? [opts.modelDir] : modelDirCandidates({ ...opts, modelId: requested });

  const state = (): ModelState => {
    if (failure) return { status: 'off', modelId: requested, reason: failure };
    if (loaded) return { status: 'on', ...loaded };
    const dir = locate();
    if (dir) return { status: 'on', modelId: readModelId(dir, requested), dir };
    const progress = opts.modelDir ? undefined : downloadProgress(opts.home, requested);
    if (progress !== undefined) return { status: 'downloading', modelId: requested, progress };
    return { status: 'off', modelId: requested, reason: missingModelReason(candidates()) };
  };

  const ensureClient = (): EmbedWorkerClient => {
    if (client) return client;
    const current = state();
    if (current.status !== 'on' || !current.dir) {
      const reason = current.reason ?? 'the model is still downloading; keyword search still works';
      throw new AppError('engine-unavailable', reason, { status: current.status });
    }
    loaded = { dir: current.dir, modelId: current.modelId };
    client = startEmbedWorker(current.dir, (reason) => {
      failure = reason;
    });
    return client;
  };

  const embed = async (texts: string[], onProgress?: (done: number, total: number) => void) => {
    if (texts.length === 0) return [];
    const worker = ensureClient();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const batch = texts.slice(start, start + EMBED_BATCH).map(cutForEmbedding);
      vectors.push(...(await worker.run(batch)));
      onProgress?.(vectors.length, texts.length);
    }
    return vectors;
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
      failure ??= 'the embedder was closed';
      await client?.close();
    },
  };
}
