import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL_ID } from '#shared/constants.ts';
import { findRepoRoot } from '../util/repo-root.ts';

/** Points at a model folder (or a folder holding <modelId>/) outside the usual places. */
export const MODEL_DIR_ENV = 'BRAIN_MODEL_DIR';

/** The files transformers.js needs from a local model folder; config.json is optional for BERT. */
export function hasModelFiles(dir: string): boolean {
  return existsSync(join(dir, 'onnx', 'model.onnx')) && existsSync(join(dir, 'tokenizer.json'));
}

/** Where a model may live, in the order they are tried. */
export function modelDirCandidates(opts: { home: string; modelId?: string }): string[] {
  const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
  const fromEnv = process.env[MODEL_DIR_ENV];
  const candidates = fromEnv ? [fromEnv, join(fromEnv, modelId)] : [];
  candidates.push(join(opts.home, 'models', modelId));
  const packaged = electronResourcesPath();
  if (packaged) candidates.push(join(packaged, 'models', modelId));
  const repo = findRepoRoot();
  if (repo) candidates.push(join(repo, 'resources', 'models', modelId));
  return candidates;
}

export function findModelDir(opts: { home: string; modelId?: string }): string | null {
  return modelDirCandidates(opts).find(hasModelFiles) ?? null;
}

export function readModelId(dir: string, fallback: string): string {
  const file = join(dir, 'brain-model.json');
  if (!existsSync(file)) return fallback;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const id = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'id') : undefined;
    return typeof id === 'string' && id.trim() !== '' ? id : fallback;
  } catch {
    // A broken manifest should not turn search off; the requested id is the best guess.
    return fallback;
  }
}

export function missingModelReason(candidates: string[]): string {
  return `model not found in ${candidates.join(', ')}; semantic search is off, keyword search still works (get it with \`brain model download\`)`;
}

/** Packaged Electron apps ship the model beside app.asar (ONNX Runtime cannot read inside asar). */
function electronResourcesPath(): string | undefined {
  const value: unknown = Reflect.get(process, 'resourcesPath');
  return typeof value === 'string' ? value : undefined;
}

/** The nearest folder above this module with a package.json: the repo from source or from out/. */
