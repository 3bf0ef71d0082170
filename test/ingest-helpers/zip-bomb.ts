/**
 * Hostile ZIP archives for the [Z1] tests (docs/SECURITY.md): entries whose headers declare small
 * sizes while their deflate data inflates to gigabytes, written byte by byte so every header field
 * (local and central, counts, ZIP64 records) says exactly what the test wants.
 */
import { constants, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';

export const GiB = 1024 * 1024 * 1024;

export type RawEntry = {
  /** The central directory's name. */
  name: string;
  /** The local header's name (JSZip reads this one); defaults to name. */
  localName?: string;
  /** The stored bytes: a raw deflate stream unless method is 0. */
  data: Uint8Array;
  method?: 0 | 8;
  /** The uncompressed size written in both headers. */
  declared: number;
  /** General-purpose bit 3: zero sizes in the local header, a data descriptor after the data. */
  descriptor?: boolean;
};

const enc = new TextEncoder();

/** A raw deflate stream of `prefix` then `pattern` repeated to about `inflated` bytes, built cheaply. */
function deflateRun(prefix: string, pattern: string, inflated: number): Uint8Array {
  const MiB = 1024 * 1024;
  const full = { finishFlush: constants.Z_FULL_FLUSH };
  // A full flush ends on a byte boundary with no back-references, so one compressed MiB repeats.
  const block = deflateRawSync(Buffer.from(pattern.repeat(Math.ceil(MiB / pattern.length))), full);
  const head = deflateRawSync(Buffer.from(prefix), full);
  const n = Math.max(1, Math.round(inflated / MiB));
  return Buffer.concat([head, ...Array.from({ length: n }, () => block), Buffer.from([0x03, 0x00])]);
}

function u16(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff];
}

function u32(n: number): number[] {
  return [...u16(n & 0xffff), ...u16(n >>> 16)];
}

function u64(n: number): number[] {
  return [...u32(n % 2 ** 32), ...u32(Math.floor(n / 2 ** 32))];
}

type Written = { entry: RawEntry; offset: number };

function writeLocals(
  entries: RawEntry[],
  out: (Uint8Array | number[])[],
  at: number,
): { written: Written[]; end: number } {
  const written: Written[] = [];
  let p = at;
  for (const e of entries) {
    const name = enc.encode(e.localName ?? e.name);
    const sizes = e.descriptor ? [0, 0] : [e.data.length, e.declared];
    const flags = e.descriptor ? 0x0808 : 0x0800;
    const head = [...u32(0x04034b50), ...u16(20), ...u16(flags), ...u16(e.method ?? 8), ...u32(0)];
    const local = [...head, ...u32(0), ...u32(sizes[0]!), ...u32(sizes[1]!), ...u16(name.length), ...u16(0)];
    const tail = e.descriptor
      ? [...u32(0x08074b50), ...u32(0), ...u32(e.data.length), ...u32(e.declared)]
      : [];
    out.push(Uint8Array.from(local), name, e.data, Uint8Array.from(tail));
    written.push({ entry: e, offset: p });
    p += local.length + name.length + e.data.length + tail.length;
  }
  return { written, end: p };
}

function centralRecords(written: Written[]): number[] {
  const cd: number[] = [];
  for (const { entry: e, offset } of written) {
    const name = enc.encode(e.name);
    const flags = e.descriptor ? 0x0808 : 0x0800;
    cd.push(...u32(0x02014b50), ...u16(20), ...u16(20), ...u16(flags), ...u16(e.method ?? 8), ...u32(0));
    cd.push(...u32(0), ...u32(e.data.length), ...u32(e.declared), ...u16(name.length), ...u16(0), ...u16(0));
    cd.push(...u16(0), ...u16(0), ...u32(0), ...u32(offset), ...name);
  }
  return cd;
}

function eocd(count: number, size: number, offset: number): number[] {
  return [
    ...u32(0x06054b50),
    ...u16(0),
    ...u16(0),
    ...u16(count),
    ...u16(count),
    ...u32(size),
    ...u32(offset),
    0,
    0,
  ];
}

function joined(parts: (Uint8Array | number[])[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)))));
}

/** A ZIP of raw entries; `counted` (default all) is what the end record says the directory holds. */
export function writeZip(entries: RawEntry[], counted = entries.length): Uint8Array {
  const parts: (Uint8Array | number[])[] = [];
  const { written, end } = writeLocals(entries, parts, 0);
  const cd = centralRecords(written);
  parts.push(cd, eocd(counted, cd.length, end));
  return joined(parts);
}

/**
 * Two directories: the end record's 32-bit fields point at `shown`, but its directory size is
 * 0xffffffff, which sends JSZip to the ZIP64 record, and that points at `hidden`.
 */
export function twoDirectories(shown: RawEntry[], hidden: RawEntry[]): Uint8Array {
  const parts: (Uint8Array | number[])[] = [];
  const locals = writeLocals([...shown, ...hidden], parts, 0);
  const a = centralRecords(locals.written.slice(0, shown.length));
  const b = centralRecords(locals.written.slice(shown.length));
  const aAt = locals.end;
  const bAt = aAt + a.length;
  const z64At = bAt + b.length;
  const count = u64(hidden.length);
  const z64 = [
    ...u32(0x06064b50),
    ...u64(44),
    ...u16(45),
    ...u16(45),
    ...u32(0),
    ...u32(0),
    ...count,
    ...count,
  ];
  z64.push(...u64(b.length), ...u64(bAt));
  const locator = [...u32(0x07064b50), ...u32(0), ...u64(z64At), ...u32(1)];
  const end = eocd(shown.length, 0xffffffff, aAt);
  parts.push(a, b, z64, locator, end);
  return joined(parts);
}

/** The entries of a real archive, each deflated again with its true size. */
export async function rawEntries(zip: Uint8Array): Promise<RawEntry[]> {
  const files = Object.values((await JSZip.loadAsync(zip)).files).filter((f) => !f.dir);
  const out: RawEntry[] = [];
  for (const f of files) {
    const bytes = await f.async('uint8array');
    out.push({ name: f.name, data: deflateRawSync(bytes), declared: bytes.length });
  }
  return out;
}

const XMLISH = '<w:p><w:r><w:t xml:space="preserve">all work and no play </w:t></w:r></w:p>';

/** A lying entry: declares `declared` bytes, inflates to about `inflated` bytes of XML-ish text. */
export function bombEntry(name: string, declared: number, inflated: number): RawEntry {
  const prefix = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  return { name, data: deflateRun(prefix, XMLISH, inflated), declared };
}

/** A real DOCX or XLSX with one entry replaced by a lying one. */
export async function withLyingEntry(zip: Uint8Array, name: string, inflated: number): Promise<Uint8Array> {
  const entries = await rawEntries(zip);
  const i = entries.findIndex((e) => e.name === name);
  if (i < 0) throw new Error(`no entry ${name}`);
  entries[i] = bombEntry(name, 60 * 1024, inflated);
  return writeZip(entries);
}
