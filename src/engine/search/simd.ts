/**
 * Two small WebAssembly kernels for the vector mirror (vector-stream.ts). Their source is the
 * WebAssembly text in simd.wat (which explains each loop); scripts/build-simd.mjs (npm run
 * build:simd) assembles it into simd-wasm.ts, whose bytes this module instantiates, so the
 * runtime needs no toolchain. Both work on one chunk of rows held in a WebAssembly.Memory owned
 * by the caller:
 *
 *  - hamming(codes, keys, n, query, mask, allowed, out, hist): for each of n rows, a weighted
 *    Hamming distance between its 384 sign bits (48 bytes at codes + 48 i) and the query's: each
 *    differing bit counts 1, or 3 where `mask` (48 bytes) has it set, so 0..FILTERED - 1, written
 *    as u16 to out; FILTERED when the row's key (i32 at keys + 4 i) is negative or not allowed (u8
 *    table at allowed). hist[distance] (u32, FILTERED + 1 counters) counts the rows by distance.
 *  - rescore(quant, dist, n, cut, query, outIdx, outDot) -> count: for each row with dist < cut,
 *    the int8 dot product of its 384 values (at quant + 384 i) with the query (384 x i16), using
 *    128-bit SIMD (i32x4.dot_i16x8_s); row indexes and dots (i32) go to outIdx / outDot.
 */
import { simdWasmBytes } from './simd-wasm.ts';

/** The part of the WebAssembly API used here (the project's type libraries do not declare it). */
type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
};

export type Kernels = {
  memory: WasmMemory;
  hamming(
    codes: number,
    keys: number,
    n: number,
    query: number,
    mask: number,
    allowed: number,
    out: number,
    hist: number,
  ): void;
  rescore(
    quant: number,
    dist: number,
    n: number,
    cut: number,
    query: number,
    outIdx: number,
    outDot: number,
  ): number;
};

/** hamming's mark of a row filtered out: above every distance (384 bits, each weighing at most 3). */
export const FILTERED = 3 * 384 + 1;

let compiled: object | null | undefined;

/** A fresh instance with its own growable memory, or null where WebAssembly SIMD is unavailable. */
export function kernels(): Kernels | null {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  if (compiled === undefined) {
    try {
      compiled = new wasm.Module(simdWasmBytes());
    } catch {
      compiled = null;
    }
  }
  if (!compiled) return null;
  const memory = new wasm.Memory({ initial: 1 });
  const instance = new wasm.Instance(compiled, { m: { mem: memory } });
  const e = instance.exports as unknown as Omit<Kernels, 'memory'>;
  return { memory, hamming: e.hamming, rescore: e.rescore };
}
