import { describe, expect, it } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { TINY_MODEL_DIR } from './test-helpers.ts';
import { liveEmbedWorkers, startEmbedWorker } from './worker-client.ts';

describe('embed worker client', () => {
  it('rejects pending work with engine-unavailable when the worker crashes', async () => {
    const before = liveEmbedWorkers();
    const reasons: string[] = [];
    const crashing = new URL('./crash-worker.fixture.ts', import.meta.url);
    const client = startEmbedWorker(TINY_MODEL_DIR, (reason) => reasons.push(reason), crashing);
    const err = await client.run(['anything']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'engine-unavailable' });
    expect((err as AppError).message).toContain('crashed: boom');
    expect(reasons).toHaveLength(1);
    await expect(client.run(['again'])).rejects.toMatchObject({ code: 'engine-unavailable' });
    await client.close();
    expect(reasons).toHaveLength(1);
    expect(liveEmbedWorkers()).toBe(before);
  });

  it('serves several requests sent at once, in order', async () => {
    const client = startEmbedWorker(TINY_MODEL_DIR, () => undefined);
    const results = await Promise.all([client.run(['a b c']), client.run(['d', 'e']), client.run([])]);
    expect(results.map((r) => r.length)).toEqual([1, 2, 0]);
    await client.close();
  });
});
