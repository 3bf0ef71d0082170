export { downloadModel, downloadProgress, modelHub } from './download.ts';
export { createEmbedder } from './embedder.ts';
export { findModelDir, readModelId } from './model-dir.ts';
export type { Embedder, ModelState } from './types.ts';
