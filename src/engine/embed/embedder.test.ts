import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_DIM, EMBED_MAX_CHARS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { cutForEmbedding } from './embedder.ts';
import { createEmbedder, type Embedder } from './index.ts';
import { cosine, norm, TINY_MODEL_DIR, TINY_MODEL_ID } from './test-helpers.ts';
import { liveEmbedWorkers } from './worker-client.ts';

const home = mkdtempSync(join(tmpdir(), 'embed-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('embedder with the tiny model', () => {
  let embedder: Embedder;
  beforeAll(() => {
    embedder = createEmbedder({ home, modelDir: TINY_MODEL_DIR });
  });
  afterAll(() => embedder.close());

  it('is on, lazily, with the id from brain-model.json', () => {
    expect(embedder.state()).toMatchObject({ status: 'on', modelId: TINY_MODEL_ID, dir: TINY_MODEL_DIR });
    expect(embedder.modelId()).toBe(TINY_MODEL_ID);
    expect(liveEmbedWorkers()).toBe(0);
  });

  it('returns 384-dim unit vectors', async () => {
    const vectors = await embedder.embed(['the pricing policy', 'a note about the database', '']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(EMBED_DIM);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    expect(liveEmbedWorkers()).toBe(1);
  });

  it('embeds in batches of 100 and reports progress per batch', async () => {
    const texts = Array.from({ length: 250 }, (_, i) => `note ${i} about the project budget`);
    const calls: Array<[number, number]> = [];
    const vectors = await embedder.embed(texts, (done, total) => calls.push([done, total]));
    expect(vectors).toHaveLength(250);
    expect(calls).toEqual([
      [100, 250],
      [200, 250],
      [250, 250],
    ]);
    expect(liveEmbedWorkers()).toBe(1);
  });

  it('keeps the order of the texts across batches', async () => {
    const texts = Array.from({ length: 120 }, (_, i) => (i % 2 ? 'coffee and cake' : 'database migration'));
    const vectors = await embedder.embed(texts);
    const [even, odd] = await embedder.embed(['database migration', 'coffee and cake']);
    expect(Array.from(vectors[118]!)).toEqual(Array.from(even!));
    expect(Array.from(vectors[119]!)).toEqual(Array.from(odd!));
  });

  it('cuts each text to 2000 characters first', async () => {
    const words = 'customer pricing contract invoice deploy server meeting budget '.repeat(100);
    const long = `${words}${'garden recipe movie '.repeat(200)}`.slice(0, 5000);
    const [full, cut] = await embedder.embed([long, long.slice(0, EMBED_MAX_CHARS)]);
    expect(Array.from(full!)).toEqual(Array.from(cut!));
    const [whole] = await embedder.embed([long.slice(0, 2500)]);
    expect(Array.from(whole!)).toEqual(Array.from(cut!));
  });

  it('is deterministic', async () => {
    const [a] = await embedder.embed(['who owns the release process?']);
    const [b] = await embedder.embed(['who owns the release process?']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('puts texts that share words closer than unrelated ones', async () => {
    const [base, near, far] = await embedder.embed([
      'the pricing policy for enterprise customers',
      'enterprise customers get a new pricing policy',
      'my dog likes pizza and football on sunday',
    ]);
    expect(cosine(base!, near!)).toBeGreaterThan(0.5);
    expect(cosine(base!, near!)).toBeGreaterThan(cosine(base!, far!) + 0.3);
  });

  it('embedQuery gives the same vector as embed', async () => {
    const query = await embedder.embedQuery('database backup restore');
    const [same] = await embedder.embed(['database backup restore']);
    expect(query.length).toBe(EMBED_DIM);
    expect(Array.from(query)).toEqual(Array.from(same!));
  });

  it('returns [] for no texts', async () => {
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe('cutForEmbedding', () => {
  it('does not split a surrogate pair', () => {
    const text = `${'a'.repeat(EMBED_MAX_CHARS - 1)}😀tail`;
    expect(cutForEmbedding(text)).toBe('a'.repeat(EMBED_MAX_CHARS - 1));
    expect(cutForEmbedding('short')).toBe('short');
  });
});

describe('close', () => {
  it('ends the worker and turns the embedder off', async () => {
    const before = liveEmbedWorkers();
    const embedder = createEmbedder({ home, modelDir: TINY_MODEL_DIR });
    await embedder.embedQuery('hello');
    expect(liveEmbedWorkers()).toBe(before + 1);
    await embedder.close();
    expect(liveEmbedWorkers()).toBe(before);
    expect(embedder.state()).toMatchObject({ status: 'off', reason: 'the embedder was closed' });
    expect(embedder.modelId()).toBeNull();
    await expect(embedder.embed(['again'])).rejects.toBeInstanceOf(AppError);
  });
});

describe('when the model is missing or broken', () => {
  it("is 'off' with a reason naming where it looked, and embed rejects", async () => {
    const workersBefore = liveEmbedWorkers();
    const embedder = createEmbedder({ home, modelId: 'nobody/no-such-model' });
    const state = embedder.state();
    expect(state.status).toBe('off');
    expect(state.reason).toContain(join(home, 'models', 'nobody/no-such-model'));
    expect(state.reason).toContain('keyword search still works');
    expect(embedder.modelId()).toBeNull();
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ code: 'engine-unavailable' });
    expect(liveEmbedWorkers()).toBe(workersBefore);
  });

  it('picks up a model that arrives later', async () => {
    const modelId = 'later/arriving-model';
    const embedder = createEmbedder({ home, modelId });
    expect(embedder.state().status).toBe('off');
    cpSync(TINY_MODEL_DIR, join(home, 'models', modelId), { recursive: true });
    expect(embedder.state()).toMatchObject({ status: 'on', modelId: TINY_MODEL_ID });
    expect(await embedder.embedQuery('budget')).toHaveLength(EMBED_DIM);
    await embedder.close();
  });

  it('a model that fails to load rejects with engine-unavailable and turns off', async () => {
    const dir = join(home, 'broken-model');
    cpSync(TINY_MODEL_DIR, dir, { recursive: true });
    writeFileSync(join(dir, 'onnx', 'model.onnx'), 'not an onnx file');
    const embedder = createEmbedder({ home, modelDir: dir });
    expect(embedder.state().status).toBe('on');
    const err = await embedder.embed(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'engine-unavailable' });
    expect((err as AppError).message).toContain('could not load the model');
    expect(embedder.state()).toMatchObject({ status: 'off' });
    expect(embedder.state().reason).toContain('could not load the model');
    await embedder.close();
  });
});
