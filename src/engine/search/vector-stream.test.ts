/**
 * The vector mirror's two passes together: the weighted first pass keeps a tenth of the rows of a
 * big stream for rescoring, and the nearest rows by exact cosine are still found among them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/driver.ts';
import { vecUpsert } from '../read/items.ts';
import { randomUnit, seededRandom as rng } from '../testing/random-vectors.ts';
import { forgetMirror, mirrorKnn, rescoreCount } from './vector-stream.ts';

const MODEL = 'test/unit-384';
/** Enough rows that the share rescored (a tenth), not the minimum, decides how many. */
const ROWS = 30_000;

let dir: string;
let db: Db;
const vectors: Float32Array[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brain-vector-stream-'));
  db = openDb(join(dir, 'brain.db'));
  const r = rng(11);
  db.transaction(() => {
    for (let rowid = 1; rowid <= ROWS; rowid++) {
      const v = randomUnit(r, 3);
      vectors.push(v);
      vecUpsert(
        db,
        { rowid, storage_kind: 'section', scope: rowid % 4 === 0 ? 'team:eng' : 'org' },
        MODEL,
        v,
      );
    }
  })();
}, 120_000);

afterAll(() => {
  forgetMirror(db);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The `k` rowids nearest to `q` by exact cosine among the rows in `scopes`. */
function exact(q: Float32Array, k: number, scopes: readonly string[]): number[] {
  const scored: [number, number][] = [];
  vectors.forEach((v, i) => {
    const rowid = i + 1;
    if (!scopes.includes(rowid % 4 === 0 ? 'team:eng' : 'org')) return;
    let dot = 0;
    for (let d = 0; d < 384; d++) dot += v[d]! * q[d]!;
    scored.push([rowid, dot]);
  });
  return scored
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map((s) => s[0]);
}

describe('mirrorKnn on a stream of 30,000 rows', () => {
  it('finds the exact nearest 20 rows (at least 95 % of them over 10 queries), within the scopes', () => {
    const r = rng(99);
    let found = 0;
    for (let i = 0; i < 10; i++) {
      const q = randomUnit(r, 3);
      const want = new Set(exact(q, 20, ['org']));
      const got = mirrorKnn(db, q, MODEL, 'section', ['org'], 20) ?? [];
      expect(got).toHaveLength(20);
      for (const rowid of got) expect(rowid % 4).not.toBe(0);
      found += got.filter((rowid) => want.has(rowid)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
  });

  it('a row equal to the query comes first', () => {
    const q = vectors[1233] as Float32Array;
    expect(mirrorKnn(db, q, MODEL, 'section', ['org', 'team:eng'], 5)?.[0]).toBe(1234);
  });
});

describe('how many first-pass rows are rescored', () => {
  it('10 % at 100k rows, about 5 % at 900k, never fewer than 2,500 or the rows asked for, never more than there are', () => {
    expect(rescoreCount(100_000, 50)).toBe(10_000);
    expect(rescoreCount(900_000, 50) / 900_000).toBeCloseTo(0.052, 3);
    expect(rescoreCount(10_000, 50)).toBe(2_500);
    expect(rescoreCount(10_000, 4_000)).toBe(4_000);
    expect(rescoreCount(1_000, 50)).toBe(1_000);
  });
});
