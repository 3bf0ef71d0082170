/**
 * Download worker: fetches a model through the transformers.js hub into a staging cache folder
 * and loads it once, so a broken download fails here rather than at the first search.
 * Its input is workerData.data: DownloadWorkerInput. Kept off the main thread so the hub settings
 * it changes (remote on, file cache) never leak into other users of transformers.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toTransferable } from '#shared/errors.ts';
import type { DownloadReply, DownloadWorkerInput } from '../embed/types.ts';

const input = (workerData as { data: DownloadWorkerInput }).data;
const port = parentPort!;

type HubProgress = { status: string; file?: string; loaded?: number; total?: number };

function onHubProgress(info: HubProgress): void {
  if (info.status !== 'progress' || !info.file) return;
  port.postMessage({
    type: 'progress',
    file: info.file,
    loaded: info.loaded ?? 0,
    total: info.total ?? 0,
  } satisfies DownloadReply);
}

async function download(): Promise<void> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  env.useFSCache = true;
  env.cacheDir = input.cacheDir;
  if (input.remoteHost) env.remoteHost = input.remoteHost;
  const extractor = await pipeline('feature-extraction', input.modelId, {
    dtype: 'fp32',
    device: 'cpu',
    progress_callback: (info) => onHubProgress(info as HubProgress),
  });
  await extractor.dispose();
}

download().then(
  () => port.postMessage({ type: 'done' } satisfies DownloadReply),
  (err: unknown) => port.postMessage({ type: 'failed', error: toTransferable(err) } satisfies DownloadReply),
);
