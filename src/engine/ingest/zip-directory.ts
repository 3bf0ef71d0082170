/**
 * A synchronous reader of a ZIP central directory (names and declared sizes only, no inflation).
 * detectFormat must be synchronous and yauzl is callback-based, so this small reader does the job;
 * it is also how the zip-bomb check sees declared sizes before mammoth or exceljs inflate anything.
 */
import { AppError } from '#shared/errors.ts';

export type ZipEntry = {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 stored, 8 deflate; anything else no parser here can read. */
  method: number;
  /** General-purpose bit flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8 names). */
  flags: number;
  localHeaderOffset: number;
  /** Where this entry's central-directory record starts (zip-rebuild.ts copies fields from it). */
  record: number;
};

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CD_SIG = 0x02014b50;
const MAX_COMMENT = 0xffff;

export const BOMB_TOTAL_BYTES = 1024 * 1024 * 1024;
const BOMB_RATIO = 200;
const BOMB_ENTRY_BYTES = 100 * 1024 * 1024;

export class ZipDirectoryError extends Error {}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function findEocd(dv: DataView): number {
  const min = Math.max(0, dv.byteLength - 22 - MAX_COMMENT);
  for (let i = dv.byteLength - 22; i >= min; i--) {
    if (dv.getUint32(i, true) === EOCD_SIG) return i;
  }
  throw new ZipDirectoryError('no end-of-directory record (truncated or not a ZIP)');
}

function num64(dv: DataView, at: number): number {
  return Number(dv.getBigUint64(at, true));
}

/** Offset and count of the central directory, following the ZIP64 records when the 32-bit fields overflow. */
function directoryBounds(dv: DataView): { offset: number; count: number } {
  const eocd = findEocd(dv);
  let count = dv.getUint16(eocd + 10, true);
  let offset = dv.getUint32(eocd + 16, true);
  const loc = eocd - 20;
  if (
    (count === 0xffff || offset === 0xffffffff) &&
    loc >= 0 &&
    dv.getUint32(loc, true) === ZIP64_LOCATOR_SIG
  ) {
    const z = num64(dv, loc + 8);
    if (z + 56 > dv.byteLength || dv.getUint32(z, true) !== ZIP64_EOCD_SIG)
      throw new ZipDirectoryError('bad ZIP64 record');
    count = num64(dv, z + 32);
    offset = num64(dv, z + 48);
  }
  return { offset, count };
}

function zip64Sizes(dv: DataView, extraStart: number, extraEnd: number, entry: ZipEntry): void {
  for (let p = extraStart; p + 4 <= extraEnd; ) {
    const id = dv.getUint16(p, true);
    const size = dv.getUint16(p + 2, true);
    if (id === 0x0001) {
      let q = p + 4;
      if (entry.uncompressedSize === 0xffffffff && q + 8 <= extraEnd) {
        entry.uncompressedSize = num64(dv, q);
        q += 8;
      }
      if (entry.compressedSize === 0xffffffff && q + 8 <= extraEnd) {
        entry.compressedSize = num64(dv, q);
        q += 8;
      }
      if (entry.localHeaderOffset === 0xffffffff && q + 8 <= extraEnd) entry.localHeaderOffset = num64(dv, q);
      return;
    }
    p += 4 + size;
  }
}

export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const dv = view(bytes);
  const { offset, count } = directoryBounds(dv);
  const names = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > dv.byteLength || dv.getUint32(p, true) !== CD_SIG) {
      throw new ZipDirectoryError('damaged central directory');
    }
    const nameLen = dv.getUint16(p + 28, true);
    const extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    const entry: ZipEntry = {
      name: names.decode(bytes.subarray(p + 46, p + 46 + nameLen)),
      compressedSize: dv.getUint32(p + 20, true),
      uncompressedSize: dv.getUint32(p + 24, true),
      method: dv.getUint16(p + 10, true),
      flags: dv.getUint16(p + 8, true),
      localHeaderOffset: dv.getUint32(p + 42, true),
      record: p,
    };
    zip64Sizes(dv, p + 46 + nameLen, Math.min(dv.byteLength, p + 46 + nameLen + extraLen), entry);
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

export function mb(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`;
}

/**
 * Refuses archives whose directory declares an absurd expansion. Declared sizes can lie: zip-verify.ts
 * then counts the bytes actually inflated, in the worker, before a parser sees the archive.
 */
export function assertNotZipBomb(entries: ZipEntry[]): void {
  const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  const bomb =
    total > BOMB_TOTAL_BYTES ||
    entries.some(
      (e) =>
        e.uncompressedSize > BOMB_ENTRY_BYTES &&
        e.uncompressedSize > BOMB_RATIO * Math.max(1, e.compressedSize),
    );
  if (bomb) throw new AppError('refused', `looks like a zip bomb (expands to ${mb(total)})`);
}
