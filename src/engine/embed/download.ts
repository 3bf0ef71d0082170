import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PRIVATE_DIR_MODE, tightenTree } from '#platform/private-files.ts';
import { DEFAULT_MODEL_ID, EMBED_DIM } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { startWorker } from '../processes/worker.ts';
import { hasModelFiles } from './model-dir.ts';
import type { DownloadReply, DownloadWorkerInput } from './types.ts';

export type DownloadOptions = {
  home: string;
  modelId?: string;
  onProgress?: (fraction: number, file: string) => void;
  /** Another hub (a mirror, or a local server in tests); the Hugging Face hub by default. */
  remoteHost?: string;
};

/** A mirror of the Hugging Face hub to download models from (an intranet mirror; tests). */
export const MODEL_HUB_ENV = 'BRAIN_MODEL_HUB';

export function modelHub(): string | undefined {
  const hub = process.env[MODEL_HUB_ENV]?.trim();
  return hub ? (hub.endsWith('/') ? hub : `${hub}/`) : undefined;
}

type Download = { promise: Promise<string>; fraction: number };

/** Downloads in flight, by target folder: the embedder reports them as 'downloading'. */
const inFlight = new Map<string, Download>();

/** The fraction done (0..1) of a download into <home>/models/<modelId>, or undefined if none runs. */
export function downloadProgress(home: string, modelId: string): number | undefined {
  return inFlight.get(join(home, 'models', modelId))?.fraction;
}

export function downloadModel(opts: DownloadOptions): Promise<string> {
  const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
  const target = join(opts.home, 'models', modelId);
  if (hasModelFiles(target)) return Promise.resolve(target);
  const running = inFlight.get(target);
  if (running) return running.promise;
  const entry: Download = { promise: Promise.resolve(target), fraction: 0 };
  entry.promise = fetchInto(target, modelId, opts, entry).finally(() => inFlight.delete(target));
  inFlight.set(target, entry);
  return entry.promise;
}

/** Downloads into a staging folder, then moves it into place, so a half download never looks like a model. */
async function fetchInto(target: string, modelId: string, opts: DownloadOptions, entry: Download) {
  const staging = join(opts.home, 'models', `.download-${randomUUID()}`);
  await mkdir(staging, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    await runDownloadWorker({ modelId, cacheDir: staging, remoteHost: opts.remoteHost }, (fraction, file) => {
      entry.fraction = fraction;
      opts.onProgress?.(fraction, file);
    });
    if (existsSync(target)) await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    await rename(join(staging, modelId), target);
    await writeManifest(target, modelId);
    // The hub library writes with the process umask; the workspace keeps owner-only modes ([M1]).
    tightenTree(target);
    opts.onProgress?.(1, '');
    return target;
  } catch (err) {
    throw downloadError(modelId, err);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Records which model the folder holds, so vectors made with it carry the right id. */
async function writeManifest(dir: string, modelId: string): Promise<void> {
  const file = join(dir, 'brain-model.json');
  if (!existsSync(file)) await writeFile(file, `${JSON.stringify({ id: modelId, dim: EMBED_DIM })}\n`);
}

function runDownloadWorker(data: DownloadWorkerInput, onProgress: (fraction: number, file: string) => void) {
  const worker = startWorker('download-worker', { data });
  const files = new Map<string, { loaded: number; total: number }>();
  let reported = 0;
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (message: DownloadReply) => {
      if (message.type === 'progress') {
        files.set(message.file, { loaded: message.loaded, total: message.total });
        // Files start one after another, so the total grows; never let the bar go backwards.
        reported = Math.max(reported, Math.min(0.99, overallFraction(files)));
        onProgress(reported, message.file);
        return;
      }
      void worker.terminate();
      if (message.type === 'done') resolve();
      else reject(new AppError(message.error.code, message.error.message));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the download worker stopped (exit code ${code})`)));
  });
}

function overallFraction(files: Map<string, { loaded: number; total: number }>): number {
  let loaded = 0;
  let total = 0;
  for (const file of files.values()) {
    loaded += file.loaded;
    total += file.total;
  }
  return total > 0 ? loaded / total : 0;
}

function downloadError(modelId: string, err: unknown): AppError {
  const cause = err instanceof Error ? err.message : String(err);
  return new AppError(
    'engine-unavailable',
    `could not download the embedding model ${modelId} (${cause}); semantic search is off, keyword search still works`,
    { modelId },
  );
}
