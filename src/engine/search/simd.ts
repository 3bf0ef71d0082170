/**
 * Two small WebAssembly kernels for the vector mirror (vector-stream.ts), assembled here from
 * bytes (no toolchain, no binary file in the tree). Both work on one chunk of rows held in a
 * WebAssembly.Memory owned by the caller:
 *
 *  - hamming(codes, keys, n, query, allowed, out, hist): for each of n rows, the Hamming distance
 *    between its 384 sign bits (48 bytes at codes + 48 i) and the query's, written as u16 to out;
 *    DIM + 1 when the row's key (i32 at keys + 4 i) is negative or not allowed (u8 table at
 *    allowed). hist[distance] (u32) counts the rows by distance. Scalar: six i64 popcounts a row.
 *  - rescore(quant, dist, n, cut, query, outIdx, outDot) -> count: for each row with dist < cut,
 *    the int8 dot product of its 384 values (at quant + 384 i) with the query (384 x i16), using
 *    128-bit SIMD (i32x4.dot_i16x8_s); row indexes and dots (i32) go to outIdx / outDot.
 */

const SIMD_DIM = 384;
const CODE_BYTES = SIMD_DIM / 8; // 48

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const vec = (bytes: number[]) => [...uleb(bytes.length), ...bytes];
const name = (s: string) => vec([...Buffer.from(s, 'utf8')]);
const section = (id: number, bytes: number[]) => [id, ...vec(bytes)];

// Opcodes.
const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number) => [0x20, ...uleb(i)];
const set = (i: number) => [0x21, ...uleb(i)];
const tee = (i: number) => [0x22, ...uleb(i)];
const i32c = (n: number) => [0x41, ...sleb(n)];
const mem = (op: number, align: number, offset: number) => [op, ...uleb(align), ...uleb(offset)];
const ADD = 0x6a;
const MUL = 0x6c;
const SHL = 0x74;
const LT_S = 0x48;
const LT_U = 0x49;
const GE_U = 0x4f;
const EQZ = 0x45;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const brIf = (d: number) => [0x0d, ...uleb(d)];
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
const V128_LOAD = (offset: number) => simd(0x00, 4, ...uleb(offset));
const V128_ZERO = simd(0x0c, ...new Array(16).fill(0));
const EXT_LOW_S = simd(0x87);
const EXT_HIGH_S = simd(0x88);
const DOT = simd(0xba);
const I32X4_ADD = simd(0xae);
const LANE = (l: number) => simd(0x1b, l);

function hammingBody(): number[] {
  // params: codes 0, keys 1, n 2, query 3, allowed 4, out 5, hist 6; locals: i 7, key 8, d 9, c 10
  const [codes, keys, n, query, allowed, out, hist, i, key, d, c] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const pop: number[] = [];
  for (let w = 0; w < CODE_BYTES / 8; w++) {
    pop.push(...get(c), ...mem(0x29, 3, w * 8), ...get(query), ...mem(0x29, 3, w * 8), 0x85, 0x7b);
    if (w > 0) pop.push(0x7c); // i64.add
  }
  return [
    1,
    4,
    I32, // locals: 4 x i32
    ...BLOCK,
    ...get(n),
    EQZ,
    ...brIf(0),
    ...LOOP,
    ...get(keys),
    ...get(i),
    ...i32c(2),
    SHL,
    ADD,
    ...mem(0x28, 2, 0),
    ...set(key),
    ...i32c(SIMD_DIM + 1),
    ...set(d),
    ...BLOCK,
    ...get(key),
    ...i32c(0),
    LT_S,
    ...brIf(0),
    ...get(allowed),
    ...get(key),
    ADD,
    ...mem(0x2d, 0, 0), // i32.load8_u
    EQZ,
    ...brIf(0),
    ...get(codes),
    ...get(i),
    ...i32c(CODE_BYTES),
    MUL,
    ADD,
    ...set(c),
    ...pop,
    0xa7, // i32.wrap_i64
    ...set(d),
    END,
    ...get(out),
    ...get(i),
    ...i32c(1),
    SHL,
    ADD,
    ...get(d),
    ...mem(0x3b, 1, 0), // i32.store16
    ...get(hist),
    ...get(d),
    ...i32c(2),
    SHL,
    ADD,
    ...tee(c),
    ...get(c),
    ...mem(0x28, 2, 0),
    ...i32c(1),
    ADD,
    ...mem(0x36, 2, 0), // i32.store
    ...get(i),
    ...i32c(1),
    ADD,
    ...tee(i),
    ...get(n),
    LT_U,
    ...brIf(0),
    END,
    END,
    END,
  ];
}

function rescoreBody(): number[] {
  // params: quant 0, dist 1, n 2, cut 3, query 4, outIdx 5, outDot 6; locals: i 7, got 8, p 9
  // (i32), acc 10, v 11 (v128)
  const [quant, dist, n, cut, query, outIdx, outDot, i, got, p, acc, v] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
  ];
  const dot: number[] = [];
  for (let k = 0; k < SIMD_DIM / 16; k++) {
    dot.push(
      ...get(p),
      ...V128_LOAD(k * 16),
      ...set(v),
      ...get(acc),
      ...get(v),
      ...EXT_LOW_S,
      ...get(query),
      ...V128_LOAD(k * 32),
      ...DOT,
      ...I32X4_ADD,
      ...get(v),
      ...EXT_HIGH_S,
      ...get(query),
      ...V128_LOAD(k * 32 + 16),
      ...DOT,
      ...I32X4_ADD,
      ...set(acc),
    );
  }
  return [
    2,
    3,
    I32,
    2,
    V128, // locals: 3 x i32, 2 x v128
    ...BLOCK,
    ...get(n),
    EQZ,
    ...brIf(0),
    ...LOOP,
    ...BLOCK,
    ...get(dist),
    ...get(i),
    ...i32c(1),
    SHL,
    ADD,
    ...mem(0x2f, 1, 0), // i32.load16_u
    ...get(cut),
    GE_U,
    ...brIf(0),
    ...get(quant),
    ...get(i),
    ...i32c(SIMD_DIM),
    MUL,
    ADD,
    ...set(p),
    ...V128_ZERO,
    ...set(acc),
    ...dot,
    ...get(outIdx),
    ...get(got),
    ...i32c(2),
    SHL,
    ADD,
    ...get(i),
    ...mem(0x36, 2, 0),
    ...get(outDot),
    ...get(got),
    ...i32c(2),
    SHL,
    ADD,
    ...get(acc),
    ...LANE(0),
    ...get(acc),
    ...LANE(1),
    ADD,
    ...get(acc),
    ...LANE(2),
    ADD,
    ...get(acc),
    ...LANE(3),
    ADD,
    ...mem(0x36, 2, 0),
    ...get(got),
    ...i32c(1),
    ADD,
    ...set(got),
    END,
    ...get(i),
    ...i32c(1),
    ADD,
    ...tee(i),
    ...get(n),
    LT_U,
    ...brIf(0),
    END,
    END,
    ...get(got),
    END,
  ];
}

function moduleBytes(): Uint8Array {
  const fn = (params: number, results: number[]) => [
    0x60,
    ...vec(new Array(params).fill(I32)),
    ...vec(results),
  ];
  const types = section(1, [...uleb(2), ...fn(7, []), ...fn(7, [I32])]);
  const imports = section(2, [...uleb(1), ...name('m'), ...name('mem'), 0x02, 0x00, ...uleb(1)]);
  const funcs = section(3, [...uleb(2), 0, 1]);
  const exports = section(7, [...uleb(2), ...name('hamming'), 0x00, 0, ...name('rescore'), 0x00, 1]);
  const code = section(10, [...uleb(2), ...vec(hammingBody()), ...vec(rescoreBody())]);
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...types,
    ...imports,
    ...funcs,
    ...exports,
    ...code,
  ]);
}

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

let compiled: object | null | undefined;

/** A fresh instance with its own growable memory, or null where WebAssembly SIMD is unavailable. */
export function kernels(): Kernels | null {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  if (compiled === undefined) {
    try {
      compiled = new wasm.Module(moduleBytes());
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
