/**
 * The vector mirror's WebAssembly kernels: simd-wasm.ts is exactly what simd.wat assembles to,
 * and both kernels agree with a plain-JS reference on random chunks (the first pass's distance
 * weighs a differing bit 3 where the mask has it, 1 elsewhere).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import wabt from 'wabt';
import { FILTERED, type Kernels, kernels } from './simd.ts';
import { simdWasmBytes } from './simd-wasm.ts';

const DIM = 384;
const CODE_BYTES = DIM / 8;

/** mulberry32: small and seeded, so a failure reproduces. */
function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi]. */
const between = (rng: () => number, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

function popcount8(b: number): number {
  let c = 0;
  for (let x = b; x; x &= x - 1) c++;
  return c;
}

/** A chunk of n random rows laid out in a kernel instance's memory, as vector-stream.ts does. */
function layout(k: Kernels, n: number, keyCount: number) {
  const align16 = (x: number) => (x + 15) & ~15;
  let top = 16;
  const take = (bytes: number) => {
    const at = top;
    top += align16(bytes);
    return at;
  };
  const at = {
    codes: take(n * CODE_BYTES),
    keys: take(n * 4),
    dist: take(n * 2),
    quant: take(n * DIM),
    qCodes: take(CODE_BYTES),
    mask: take(CODE_BYTES),
    qInt: take(DIM * 2),
    allowed: take(keyCount),
    hist: take((FILTERED + 1) * 4),
    outIdx: take(n * 4),
    outDot: take(n * 4),
  };
  const have = k.memory.buffer.byteLength;
  if (top > have) k.memory.grow(Math.ceil((top - have) / 65536));
  const buffer = k.memory.buffer;
  return {
    at,
    codes: new Uint8Array(buffer, at.codes, n * CODE_BYTES),
    keys: new Int32Array(buffer, at.keys, n),
    dist: new Uint16Array(buffer, at.dist, n),
    quant: new Int8Array(buffer, at.quant, n * DIM),
    qCodes: new Uint8Array(buffer, at.qCodes, CODE_BYTES),
    mask: new Uint8Array(buffer, at.mask, CODE_BYTES),
    qInt: new Int16Array(buffer, at.qInt, DIM),
    allowed: new Uint8Array(buffer, at.allowed, keyCount),
    hist: new Uint32Array(buffer, at.hist, FILTERED + 1),
    outIdx: new Int32Array(buffer, at.outIdx, n),
    outDot: new Int32Array(buffer, at.outDot, n),
  };
}

function fresh(): Kernels {
  const k = kernels();
  if (!k) throw new Error('WebAssembly SIMD is unavailable');
  return k;
}

describe('simd-wasm.ts', () => {
  it('is the module simd.wat assembles to (npm run build:simd)', async () => {
    const tools = await wabt();
    const source = readFileSync(new URL('./simd.wat', import.meta.url), 'utf8');
    const module = tools.parseWat('simd.wat', source, { simd: true });
    try {
      module.resolveNames();
      module.validate();
      const { buffer } = module.toBinary({ canonicalize_lebs: true, write_debug_names: false });
      expect(Buffer.from(simdWasmBytes()).equals(Buffer.from(buffer))).toBe(true);
    } finally {
      module.destroy();
    }
  });
});

describe('simd kernels', () => {
  it('compile here (the vector mirror needs them)', () => {
    expect(kernels()).not.toBeNull();
  });

  for (const seed of [1, 2, 3]) {
    it(`hamming and rescore match a plain-JS reference (seed ${seed})`, () => {
      const rng = seededRng(seed);
      const n = between(rng, 150, 300);
      const keyCount = 7;
      const k = fresh();
      const c = layout(k, n, keyCount);

      for (let i = 0; i < c.codes.length; i++) c.codes[i] = between(rng, 0, 255);
      for (let i = 0; i < n; i++) c.keys[i] = rng() < 0.1 ? -between(rng, 1, 2 ** 31) : between(rng, 0, 6);
      for (let i = 0; i < keyCount; i++) c.allowed[i] = i % 3 === 2 ? 0 : between(rng, 1, 255);
      // A few rows at distance 0 from the query, one where every bit differs.
      for (let j = 0; j < CODE_BYTES; j++) c.qCodes[j] = between(rng, 0, 255);
      // The mask: a third of the bits, as the query's 128 largest dimensions would be.
      for (let j = 0; j < CODE_BYTES; j++) c.mask[j] = between(rng, 0, 255) & between(rng, 0, 255);
      for (let j = 0; j < CODE_BYTES; j++) {
        c.codes[j] = c.qCodes[j]!;
        c.codes[CODE_BYTES + j] = ~c.qCodes[j]! & 0xff;
      }
      c.keys[0] = 0;
      c.keys[1] = 1;
      c.allowed[0] = 1;
      c.allowed[1] = 1;

      // Int8 values and the i16 query, extremes included.
      for (let i = 0; i < c.quant.length; i++) c.quant[i] = between(rng, -128, 127);
      for (let d = 0; d < DIM; d++) c.qInt[d] = between(rng, -32768, 32767);
      c.quant.fill(-128, 2 * DIM, 3 * DIM);

      // Pass 1, against the reference.
      c.hist.fill(0);
      c.dist.fill(0xffff);
      k.hamming(c.at.codes, c.at.keys, n, c.at.qCodes, c.at.mask, c.at.allowed, c.at.dist, c.at.hist);
      const wantDist: number[] = [];
      const wantHist = new Array<number>(FILTERED + 1).fill(0);
      let maskBits = 0;
      for (const b of c.mask) maskBits += popcount8(b);
      for (let i = 0; i < n; i++) {
        const key = c.keys[i]!;
        let d = FILTERED;
        if (key >= 0 && c.allowed[key] !== 0) {
          d = 0;
          for (let j = 0; j < CODE_BYTES; j++) {
            const x = c.codes[i * CODE_BYTES + j]! ^ c.qCodes[j]!;
            d += popcount8(x) + 2 * popcount8(x & c.mask[j]!);
          }
        }
        wantDist.push(d);
        wantHist[d]!++;
      }
      expect(Array.from(c.dist)).toEqual(wantDist);
      expect(Array.from(c.hist)).toEqual(wantHist);
      expect(wantDist.slice(0, 2)).toEqual([0, DIM + 2 * maskBits]);
      expect(wantDist).toContain(FILTERED);

      // Pass 2 for a few cuts: none, a middle one, all allowed rows, every row.
      for (const cut of [0, 190, 400, FILTERED, FILTERED + 1]) {
        c.outIdx.fill(-1);
        c.outDot.fill(0);
        const found = k.rescore(c.at.quant, c.at.dist, n, cut, c.at.qInt, c.at.outIdx, c.at.outDot);
        const wantIdx: number[] = [];
        const wantDot: number[] = [];
        for (let i = 0; i < n; i++) {
          if (wantDist[i]! >= cut) continue;
          let dot = 0;
          for (let d = 0; d < DIM; d++) dot += c.quant[i * DIM + d]! * c.qInt[d]!;
          wantIdx.push(i);
          wantDot.push(dot | 0);
        }
        expect(found).toBe(wantIdx.length);
        expect(Array.from(c.outIdx.subarray(0, found))).toEqual(wantIdx);
        expect(Array.from(c.outDot.subarray(0, found))).toEqual(wantDot);
        expect(c.outIdx[found] ?? -1).toBe(-1); // nothing written past the count
      }
    });
  }

  it('n = 0 writes nothing', () => {
    const k = fresh();
    const c = layout(k, 4, 1);
    c.keys.fill(0);
    c.allowed[0] = 1;
    c.dist.fill(7);
    c.hist.fill(0);
    k.hamming(c.at.codes, c.at.keys, 0, c.at.qCodes, c.at.mask, c.at.allowed, c.at.dist, c.at.hist);
    expect(Array.from(c.dist)).toEqual([7, 7, 7, 7]);
    expect(c.hist.every((x) => x === 0)).toBe(true);
    expect(k.rescore(c.at.quant, c.at.dist, 0, FILTERED, c.at.qInt, c.at.outIdx, c.at.outDot)).toBe(0);
  });

  it('hamming adds to the histogram it is given (the caller clears it)', () => {
    const k = fresh();
    const c = layout(k, 3, 1);
    c.keys.set([0, -1, 0]);
    c.allowed[0] = 1;
    c.codes.fill(0);
    c.qCodes.fill(0);
    c.mask.fill(0);
    c.codes[CODE_BYTES] = 0xff; // row 1 is filtered out anyway
    c.hist.fill(0);
    c.hist[0] = 10;
    k.hamming(c.at.codes, c.at.keys, 3, c.at.qCodes, c.at.mask, c.at.allowed, c.at.dist, c.at.hist);
    expect(Array.from(c.dist)).toEqual([0, FILTERED, 0]);
    expect(c.hist[0]).toBe(12);
    expect(c.hist[FILTERED]).toBe(1);
  });
});
