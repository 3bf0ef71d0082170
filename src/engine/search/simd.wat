;; Two small WebAssembly kernels for the vector mirror (vector-stream.ts). This file is their
;; source: scripts/build-simd.mjs (npm run build:simd) assembles it with wabt into simd-wasm.ts,
;; which simd.ts instantiates; simd.test.ts checks that the two stay in step. Both kernels work on
;; one chunk of rows held in a WebAssembly.Memory owned by the caller (imported as m.mem; the
;; module exports only the two functions). Every address is a byte offset into that memory.
;;
;;  - hamming(codes, keys, n, query, mask, allowed, out, hist): for each of n rows, a weighted
;;    Hamming distance between its 384 sign bits (48 bytes at codes + 48 i) and the query's: the
;;    bits that differ, plus twice those of them that are set in mask (48 bytes: the dimensions
;;    where the query is largest), so a differing bit weighs 3 there and 1 elsewhere: 0..1152,
;;    written as u16 to out; 1153 when the row's key (i32 at keys + 4 i) is negative or not
;;    allowed (u8 table at allowed). hist[distance] (u32) counts the rows by distance, 1153
;;    included (the caller clears it: 1154 counters). Scalar: twelve i64 popcounts a row.
;;  - rescore(quant, dist, n, cut, query, outIdx, outDot) -> count: for each row with dist < cut
;;    (u16 at dist + 2 i, compared unsigned), the int8 dot product of its 384 values (at
;;    quant + 384 i) with the query (384 x i16), using 128-bit SIMD (i32x4.dot_i16x8_s); row
;;    indexes and dots (i32) go to outIdx / outDot, packed; returns how many rows were written.
;;
;; DIM = 384 is fixed: the per-row strides (48, 384) and the unrolled offsets below follow from it.

(module
  (import "m" "mem" (memory 1))

  (func $hamming (export "hamming")
    (param $codes i32)   ;; sign bits: 48 bytes a row
    (param $keys i32)    ;; i32 a row: the row's interned (scope, model) id, -1 for an empty slot
    (param $n i32)       ;; rows in the chunk
    (param $query i32)   ;; the query's 48 bytes of sign bits
    (param $mask i32)    ;; 48 bytes: the bits whose difference weighs 3 instead of 1
    (param $allowed i32) ;; u8 a key: nonzero when rows with that key pass the filter
    (param $out i32)     ;; u16 a row: the distance
    (param $hist i32)    ;; u32 a distance (0..1153): rows counted by distance
    (local $i i32)       ;; the row
    (local $key i32)     ;; its key
    (local $d i32)       ;; its distance
    (local $at i32)      ;; scratch address: the row's sign bits, then its histogram counter
    (local $x i64)       ;; one 64-bit word of the row's bits xor the query's

    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      ;; One pass over the rows, i = 0 .. n - 1 (a do-while: n > 0 here).
      (loop $rows
        (local.set $key (i32.load (i32.add (local.get $keys) (i32.shl (local.get $i) (i32.const 2)))))
        ;; Filtered out (empty slot, or a key the caller did not allow) until shown otherwise.
        (local.set $d (i32.const 1153))
        (block $filtered
          (br_if $filtered (i32.lt_s (local.get $key) (i32.const 0)))
          (br_if $filtered (i32.eqz (i32.load8_u (i32.add (local.get $allowed) (local.get $key)))))
          (local.set $at (i32.add (local.get $codes) (i32.mul (local.get $i) (i32.const 48))))
          ;; The distance: over the six 64-bit words of the 384 bits, x = row xor query, each word
          ;; adds popcount(x) + 2 popcount(x & mask); summed on the stack.
          ;; word 0
          (local.set $x (i64.xor (i64.load offset=0 (local.get $at)) (i64.load offset=0 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=0 (local.get $mask)))) (i64.const 1)))
          ;; word 1
          (local.set $x (i64.xor (i64.load offset=8 (local.get $at)) (i64.load offset=8 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=8 (local.get $mask)))) (i64.const 1)))
          i64.add
          ;; word 2
          (local.set $x (i64.xor (i64.load offset=16 (local.get $at)) (i64.load offset=16 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=16 (local.get $mask)))) (i64.const 1)))
          i64.add
          ;; word 3
          (local.set $x (i64.xor (i64.load offset=24 (local.get $at)) (i64.load offset=24 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=24 (local.get $mask)))) (i64.const 1)))
          i64.add
          ;; word 4
          (local.set $x (i64.xor (i64.load offset=32 (local.get $at)) (i64.load offset=32 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=32 (local.get $mask)))) (i64.const 1)))
          i64.add
          ;; word 5
          (local.set $x (i64.xor (i64.load offset=40 (local.get $at)) (i64.load offset=40 (local.get $query))))
          (i64.add (i64.popcnt (local.get $x))
            (i64.shl (i64.popcnt (i64.and (local.get $x) (i64.load offset=40 (local.get $mask)))) (i64.const 1)))
          i64.add
          i32.wrap_i64
          local.set $d)
        ;; out[i] = d
        (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $d))
        ;; hist[d] += 1
        (i32.store
          (local.tee $at (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
          (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (br_if $rows (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n))))))

  (func $rescore (export "rescore")
    (param $quant i32)  ;; int8 values: 384 bytes a row
    (param $dist i32)   ;; u16 a row: the first pass's distances (hamming's out)
    (param $n i32)      ;; rows in the chunk
    (param $cut i32)    ;; rows with dist < cut are rescored
    (param $query i32)  ;; the query: 384 x i16 (768 bytes)
    (param $outIdx i32) ;; i32 a rescored row: its index in the chunk
    (param $outDot i32) ;; i32 a rescored row: its dot product with the query
    (result i32)        ;; how many rows were rescored (entries written to outIdx / outDot)
    (local $i i32)      ;; the row
    (local $got i32)    ;; rows rescored so far
    (local $row i32)    ;; the row's int8 values
    (local $acc v128)   ;; four i32 partial dot products
    (local $v v128)     ;; 16 int8 values of the row

    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      ;; One pass over the rows, i = 0 .. n - 1 (a do-while: n > 0 here).
      (loop $rows
        (block $skip
          (br_if $skip
            (i32.ge_u (i32.load16_u (i32.add (local.get $dist) (i32.shl (local.get $i) (i32.const 1))))
              (local.get $cut)))
          (local.set $row (i32.add (local.get $quant) (i32.mul (local.get $i) (i32.const 384))))
          (local.set $acc (v128.const i32x4 0 0 0 0))
          ;; The dot product, unrolled over the 24 blocks of 16 values: each block of int8 values is
          ;; sign-extended to two i16x8 halves, and each half is multiplied with the matching 8 query
          ;; values by i32x4.dot_i16x8_s (pairwise products summed into 4 lanes) and added to acc.
          ;; Block k reads the row at 16 k and the query at 32 k (low half) and 32 k + 16 (high).
          ;; values 0..15
          (local.set $v (v128.load offset=0 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=0 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $query)))))
          ;; values 16..31
          (local.set $v (v128.load offset=16 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=32 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=48 (local.get $query)))))
          ;; values 32..47
          (local.set $v (v128.load offset=32 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=64 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=80 (local.get $query)))))
          ;; values 48..63
          (local.set $v (v128.load offset=48 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=96 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=112 (local.get $query)))))
          ;; values 64..79
          (local.set $v (v128.load offset=64 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=128 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=144 (local.get $query)))))
          ;; values 80..95
          (local.set $v (v128.load offset=80 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=160 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=176 (local.get $query)))))
          ;; values 96..111
          (local.set $v (v128.load offset=96 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=192 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=208 (local.get $query)))))
          ;; values 112..127
          (local.set $v (v128.load offset=112 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=224 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=240 (local.get $query)))))
          ;; values 128..143
          (local.set $v (v128.load offset=128 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=256 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=272 (local.get $query)))))
          ;; values 144..159
          (local.set $v (v128.load offset=144 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=288 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=304 (local.get $query)))))
          ;; values 160..175
          (local.set $v (v128.load offset=160 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=320 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=336 (local.get $query)))))
          ;; values 176..191
          (local.set $v (v128.load offset=176 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=352 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=368 (local.get $query)))))
          ;; values 192..207
          (local.set $v (v128.load offset=192 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=384 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=400 (local.get $query)))))
          ;; values 208..223
          (local.set $v (v128.load offset=208 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=416 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=432 (local.get $query)))))
          ;; values 224..239
          (local.set $v (v128.load offset=224 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=448 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=464 (local.get $query)))))
          ;; values 240..255
          (local.set $v (v128.load offset=240 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=480 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=496 (local.get $query)))))
          ;; values 256..271
          (local.set $v (v128.load offset=256 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=512 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=528 (local.get $query)))))
          ;; values 272..287
          (local.set $v (v128.load offset=272 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=544 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=560 (local.get $query)))))
          ;; values 288..303
          (local.set $v (v128.load offset=288 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=576 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=592 (local.get $query)))))
          ;; values 304..319
          (local.set $v (v128.load offset=304 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=608 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=624 (local.get $query)))))
          ;; values 320..335
          (local.set $v (v128.load offset=320 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=640 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=656 (local.get $query)))))
          ;; values 336..351
          (local.set $v (v128.load offset=336 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=672 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=688 (local.get $query)))))
          ;; values 352..367
          (local.set $v (v128.load offset=352 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=704 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=720 (local.get $query)))))
          ;; values 368..383
          (local.set $v (v128.load offset=368 (local.get $row)))
          (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=736 (local.get $query))))
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=752 (local.get $query)))))
          ;; outIdx[got] = i; outDot[got] = the sum of acc's four lanes; got += 1
          (i32.store (i32.add (local.get $outIdx) (i32.shl (local.get $got) (i32.const 2))) (local.get $i))
          (i32.store (i32.add (local.get $outDot) (i32.shl (local.get $got) (i32.const 2)))
            (i32.add
              (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                (i32x4.extract_lane 2 (local.get $acc)))
              (i32x4.extract_lane 3 (local.get $acc))))
          (local.set $got (i32.add (local.get $got) (i32.const 1))))
        (br_if $rows (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n)))))
    (local.get $got)))
