/**
 * Inference worker: loads the local model once with transformers.js on onnxruntime-node and embeds
 * the batches the main thread sends, one at a time. Its input is workerData.data: EmbedWorkerInput.
 */
import { basename, dirname, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { EMBED_DIM } from '#shared/constants.ts';
import { AppError, toTransferable } from '#shared/errors.ts';
import type { EmbedReply, EmbedRequest, EmbedWorkerInput } from '../embed/types.ts';

const input = (workerData as { data: EmbedWorkerInput }).data;
const port = parentPort!;

// Start loading at once: the worker only exists because an embed is waiting.
const extractor = loadExtractor(input.dir);
extractor.catch(() => undefined); // reported per request below

let queue: Promise<void> = Promise.resolve();
port.on('message', (request: EmbedRequest) => {
  queue = queue.then(() => handle(request));
});

async function loadExtractor(dir: string): Promise<FeatureExtractionPipeline> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.localModelPath = dirname(dir) + sep;
  assertNodeRuntime(env.backends.onnx.versions);
  // The hub only joins localModelPath for names that look like model ids; others go as a path.
  const name = basename(dir);
  const id = /^[\w.-]{1,96}$/.test(name) && !name.includes('..') && !name.includes('--') ? name : dir;
  return pipeline('feature-extraction', id, { dtype: 'fp32', device: 'cpu' });
}

/** In Node transformers.js must run on the native onnxruntime-node, never the wasm build. */
function assertNodeRuntime(versions: unknown): void {
  const node = typeof versions === 'object' && versions !== null ? Reflect.get(versions, 'node') : undefined;
  if (typeof node !== 'string') {
    throw new AppError('engine-unavailable', 'onnxruntime-node is not the ONNX backend in this process');
  }
}

async function handle(request: EmbedRequest): Promise<void> {
  let model: FeatureExtractionPipeline;
  try {
    model = await extractor;
  } catch (err) {
    return reply({ type: 'failed', id: request.id, fatal: true, error: loadError(err) });
  }
  try {
    const vectors = await run(model, request.texts);
    port.postMessage(
      { type: 'vectors', id: request.id, vectors } satisfies EmbedReply,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (err) {
    const fatal = err instanceof AppError && err.code === 'engine-unavailable';
    reply({ type: 'failed', id: request.id, fatal, error: toTransferable(err) });
  }
}

async function run(model: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const output = await model(texts, { pooling: 'mean', normalize: true });
  const [rows, dim] = output.dims;
  if (dim !== EMBED_DIM || rows !== texts.length || !(output.data instanceof Float32Array)) {
    throw new AppError(
      'engine-unavailable',
      `the model gives ${output.dims.join('x')} ${output.type} vectors, expected ${texts.length}x${EMBED_DIM} float32`,
    );
  }
  const data = output.data;
  const vectors = texts.map((_, i) => data.slice(i * EMBED_DIM, (i + 1) * EMBED_DIM));
  output.dispose();
  return vectors;
}

function loadError(err: unknown) {
  const { message } = toTransferable(err);
  return {
    code: 'engine-unavailable' as const,
    message: `could not load the model in ${input.dir}: ${message}`,
  };
}

function reply(message: EmbedReply): void {
  port.postMessage(message);
}
