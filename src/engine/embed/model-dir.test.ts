import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findModelDir, readModelId } from './index.ts';
import { MODEL_DIR_ENV, modelDirCandidates } from './model-dir.ts';
import { TINY_MODEL_DIR, TINY_MODEL_ID } from './test-helpers.ts';

const MODEL = 'acme/embed-small';

describe('findModelDir', () => {
  let home: string;
  let saved: string | undefined;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'embed-home-'));
    saved = process.env[MODEL_DIR_ENV];
    delete process.env[MODEL_DIR_ENV];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[MODEL_DIR_ENV];
    else process.env[MODEL_DIR_ENV] = saved;
    rmSync(home, { recursive: true, force: true });
  });

  it('returns null when no candidate holds a model', () => {
    expect(findModelDir({ home, modelId: MODEL })).toBeNull();
  });

  it('finds <home>/models/<modelId>', () => {
    const dir = join(home, 'models', MODEL);
    cpSync(TINY_MODEL_DIR, dir, { recursive: true });
    expect(findModelDir({ home, modelId: MODEL })).toBe(dir);
  });

  it('prefers BRAIN_MODEL_DIR over home', () => {
    cpSync(TINY_MODEL_DIR, join(home, 'models', MODEL), { recursive: true });
    process.env[MODEL_DIR_ENV] = TINY_MODEL_DIR;
    expect(findModelDir({ home, modelId: MODEL })).toBe(TINY_MODEL_DIR);
  });

  it('ignores a folder without onnx/model.onnx and tokenizer.json', () => {
    const dir = join(home, 'models', MODEL);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tokenizer.json'), '{}');
    process.env[MODEL_DIR_ENV] = join(home, 'nowhere');
    expect(findModelDir({ home, modelId: MODEL })).toBeNull();
  });

  it('tries env, home, then the repo resources folder', () => {
    process.env[MODEL_DIR_ENV] = '/env/models';
    const candidates = modelDirCandidates({ home, modelId: MODEL });
    expect(candidates[0]).toBe('/env/models');
    expect(candidates).toContain(join(home, 'models', MODEL));
    expect(candidates.at(-1)).toMatch(/resources[/\\]models[/\\]acme[/\\]embed-small$/);
  });
});

describe('readModelId', () => {
  it('reads brain-model.json', () => {
    expect(readModelId(TINY_MODEL_DIR, 'fallback')).toBe(TINY_MODEL_ID);
  });

  it('falls back to the requested id without a manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'embed-id-'));
    expect(readModelId(dir, MODEL)).toBe(MODEL);
    writeFileSync(join(dir, 'brain-model.json'), 'not json');
    expect(readModelId(dir, MODEL)).toBe(MODEL);
    rmSync(dir, { recursive: true, force: true });
  });
});
