/**
 * Reads named parts of an archive that zip-verify.ts has already counted and rebuilt ([Z1] in
 * docs/SECURITY.md), so every entry's real inflated size is at most its declared size. OPC part
 * names compare without case (ECMA-376 part 2). Used by pptx.ts, which has no parser library of
 * its own to open the archive, and by docx-parts.ts for the parts mammoth does not read.
 */
import { inflateRawSync } from 'node:zlib';
import { readZipDirectory, type ZipEntry } from './zip-directory.ts';

const LOCAL_SIG = 0x04034b50;

type PartRead = { ok: true; text: string } | { ok: false; why: 'missing' | 'too large' };

export type ZipParts = {
  has: (name: string) => boolean;
  read: (name: string) => PartRead;
  /** As read, the part's bytes undecoded (an HTML part names its own charset). */
  bytes: (name: string) => { ok: true; bytes: Uint8Array } | { ok: false; why: 'missing' | 'too large' };
  /** Every part name, lower-cased, in directory order. */
  names: () => string[];
};

function partBytes(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || dv.getUint32(at, true) !== LOCAL_SIG) return new Uint8Array(0);
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
}

/** `maxBytes` bounds one part's inflated size: a larger part is reported, never inflated. */
export function zipParts(zip: Uint8Array, maxBytes: number): ZipParts {
  const entries = new Map(readZipDirectory(zip).map((e) => [e.name.toLowerCase(), e]));
  return {
    has: (name) => entries.has(name.toLowerCase()),
    names: () => [...entries.keys()],
    read: (name) => {
      const entry = entries.get(name.toLowerCase());
      if (!entry) return { ok: false, why: 'missing' };
      if (entry.uncompressedSize > maxBytes) return { ok: false, why: 'too large' };
      return { ok: true, text: new TextDecoder('utf-8').decode(partBytes(zip, entry)) };
    },
    bytes: (name) => {
      const entry = entries.get(name.toLowerCase());
      if (!entry) return { ok: false, why: 'missing' };
      if (entry.uncompressedSize > maxBytes) return { ok: false, why: 'too large' };
      return { ok: true, bytes: partBytes(zip, entry) };
    },
  };
}
