/**
 * Writes the archive that mammoth and exceljs are given ([Z1] in docs/SECURITY.md): exactly the
 * entries zip-verify.ts inflated and counted, in directory order, their compressed bytes copied
 * unchanged. Both parsers read ZIPs through JSZip, whose reader follows directory records past
 * the end record's count, switches to ZIP64 when any end-record field is maxed out, and names
 * entries from their local headers. So the layout written here leaves it one reading only: a
 * local header per entry with no extra field and no data descriptor, the central directory right
 * after the data, one end record with no comment, and no ZIP64 records.
 */
import type { ZipEntry } from './zip-directory.ts';
import { ZipDirectoryError } from './zip-directory.ts';

/** One verified entry: its directory record, the name JSZip would read, and its compressed bytes. */
export type Part = {
  entry: ZipEntry;
  localName: Uint8Array;
  data: Uint8Array;
  /** Where its local header starts and its data ends in the original file. */
  from: number;
  to: number;
};

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const LOCAL = 30;
const CENTRAL = 46;
const END = 22;
const DATA_DESCRIPTOR = 0x0008;

function writeLocal(out: DataView, at: number, part: Part, src: DataView): void {
  const r = part.entry.record;
  out.setUint32(at, LOCAL_SIG, true);
  out.setUint16(at + 4, src.getUint16(r + 6, true), true); // version needed
  out.setUint16(at + 6, part.entry.flags & ~DATA_DESCRIPTOR, true);
  out.setUint16(at + 8, part.entry.method, true);
  out.setUint32(at + 10, src.getUint32(r + 12, true), true); // time and date
  out.setUint32(at + 14, src.getUint32(r + 16, true), true); // crc-32
  out.setUint32(at + 18, part.data.length, true);
  out.setUint32(at + 22, part.entry.uncompressedSize, true);
  out.setUint16(at + 26, part.localName.length, true);
  out.setUint16(at + 28, 0, true);
}

function writeCentral(out: DataView, at: number, part: Part, src: DataView, localAt: number): void {
  const r = part.entry.record;
  out.setUint32(at, CENTRAL_SIG, true);
  out.setUint32(at + 4, src.getUint32(r + 4, true), true); // version made by, version needed
  out.setUint16(at + 8, part.entry.flags & ~DATA_DESCRIPTOR, true);
  out.setUint16(at + 10, part.entry.method, true);
  out.setUint32(at + 12, src.getUint32(r + 12, true), true); // time and date
  out.setUint32(at + 16, src.getUint32(r + 16, true), true); // crc-32
  out.setUint32(at + 20, part.data.length, true);
  out.setUint32(at + 24, part.entry.uncompressedSize, true);
  out.setUint16(at + 28, part.localName.length, true);
  // Extra field, comment and disk number stay zero: ZIP64 fields would reopen a second reading.
  out.setUint16(at + 36, src.getUint16(r + 36, true), true); // internal attributes
  out.setUint32(at + 38, src.getUint32(r + 38, true), true); // external attributes (directory bit)
  out.setUint32(at + 42, localAt, true);
}

/**
 * The rebuilt archive. Sizes fit the 32-bit fields: the caller has refused more than 65534
 * entries, declared totals past BOMB_TOTAL_BYTES and overlapping entries (so the data copied is
 * at most the file's own size).
 */
export function rebuildZip(src: Uint8Array, parts: Part[]): Uint8Array {
  const size = parts.reduce((n, p) => n + LOCAL + CENTRAL + 2 * p.localName.length + p.data.length, END);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  const from = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const localAt: number[] = [];
  let q = 0;
  for (const part of parts) {
    localAt.push(q);
    writeLocal(dv, q, part, from);
    out.set(part.localName, q + LOCAL);
    out.set(part.data, q + LOCAL + part.localName.length);
    q += LOCAL + part.localName.length + part.data.length;
  }
  const directory = q;
  parts.forEach((part, i) => {
    writeCentral(dv, q, part, from, localAt[i]!);
    out.set(part.localName, q + CENTRAL);
    q += CENTRAL + part.localName.length;
  });
  dv.setUint32(q, END_SIG, true);
  dv.setUint16(q + 8, parts.length, true);
  dv.setUint16(q + 10, parts.length, true);
  dv.setUint32(q + 12, q - directory, true);
  dv.setUint32(q + 16, directory, true);
  // JSZip takes the last end-record signature in the file: it must be this record's own.
  for (let i = q + 1; i + 4 <= size; i++) {
    if (dv.getUint32(i, true) === END_SIG)
      throw new ZipDirectoryError('its directory cannot be rewritten plainly');
  }
  return out;
}
