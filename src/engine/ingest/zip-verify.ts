/**
 * [Z1] in docs/SECURITY.md: a ZIP's declared sizes are not trusted. Before mammoth or exceljs
 * inflate anything, every entry of the central directory is inflated once, its real bytes counted
 * and thrown away; an entry that inflates past its declared size, or a total past BOMB_TOTAL_BYTES,
 * stops the file at once. The parsers then get an archive rebuilt from exactly the entries counted
 * (zip-rebuild.ts), so what they inflate is what was counted, whatever the original's layout.
 * Runs in the extraction worker (docx.ts, xlsx.ts), inside the per-file cache.
 *
 * Why not yauzl: it reads exactly the end record's count of entries and checks the comment length,
 * while JSZip (inside both parsers) reads on past the count and follows ZIP64 records on other
 * cues, so a yauzl pass would check a different list than the one the parsers read.
 */
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { AppError } from '#shared/errors.ts';
import {
  assertNotZipBomb,
  BOMB_TOTAL_BYTES,
  mb,
  readZipDirectory,
  ZipDirectoryError,
  type ZipEntry,
} from './zip-directory.ts';
import { type Part, rebuildZip } from './zip-rebuild.ts';

const LOCAL_SIG = 0x04034b50;
/** One below 0xffff, which would make the rebuilt end record read as ZIP64. */
const MAX_ENTRIES = 0xfffe;
/** Entries declared up to this size are inflated in one synchronous call (a stream costs ~0.1 ms). */
const SYNC_MAX_BYTES = 1024 * 1024;
const STREAM_CHUNK = 256 * 1024;

type Count = { bytes: number; over: boolean };

function sizeText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  return n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : mb(n);
}

function bomb(reason: string): AppError {
  return new AppError('refused', `looks like a zip bomb: ${reason}`);
}

/** The entry's local header and data, where JSZip looks for them. */
function locate(bytes: Uint8Array, dv: DataView, entry: ZipEntry): Part {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== LOCAL_SIG) {
    throw new ZipDirectoryError(`${entry.name} has no local header`);
  }
  if (entry.flags & 0x0001) throw new ZipDirectoryError(`${entry.name} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipDirectoryError(
      `${entry.name} uses compression method ${entry.method}, which cannot be read`,
    );
  }
  const nameEnd = at + 30 + dv.getUint16(at + 26, true);
  const start = nameEnd + dv.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipDirectoryError(`${entry.name} runs past the end of the file`);
  return {
    entry,
    localName: bytes.subarray(at + 30, nameEnd),
    data: bytes.subarray(start, end),
    from: at,
    to: end,
  };
}

/** Entries that share bytes are how a small file inflates many times over; no writer makes them. */
function assertNoOverlap(parts: Part[]): void {
  const sorted = [...parts].sort((a, b) => a.from - b.from);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (b.from < a.to) throw bomb(`entries ${a.entry.name} and ${b.entry.name} overlap`);
  }
}

/**
 * Damaged data counts as `limit`: the parsers' inflater (pako, a port of zlib) decodes the same
 * bits the same way and fails at the same place, so it cannot produce more.
 */
function countSync(data: Uint8Array, limit: number): Count {
  try {
    const bytes = inflateRawSync(data, { maxOutputLength: limit + 1 }).length;
    return { bytes, over: bytes > limit };
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return { bytes: limit + 1, over: true };
    return { bytes: limit, over: false };
  }
}

/** Streams the inflate in chunks that are dropped at once, stopping as soon as `limit` is passed. */
function countStream(data: Uint8Array, limit: number): Promise<Count> {
  return new Promise((resolve) => {
    const inflater = createInflateRaw({ chunkSize: STREAM_CHUNK });
    let bytes = 0;
    let settled = false;
    const settle = (count: Count): void => {
      if (settled) return;
      settled = true;
      inflater.destroy();
      resolve(count);
    };
    inflater.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) settle({ bytes, over: true });
    });
    inflater.on('error', () => settle({ bytes, over: false }));
    inflater.on('end', () => settle({ bytes, over: false }));
    inflater.end(data);
  });
}

function countEntry(entry: ZipEntry, data: Uint8Array, room: number): Count | Promise<Count> {
  // Stored bytes are copied, never inflated: at most the file's own size.
  if (entry.method === 0) return { bytes: data.length, over: data.length > room };
  const limit = Math.min(entry.uncompressedSize, room);
  return limit <= SYNC_MAX_BYTES ? countSync(data, limit) : countStream(data, limit);
}

/** Real bytes against each entry's declared size (its own cap) and the total cap. */
async function countInflated(parts: Part[], totalCap: number): Promise<void> {
  let total = 0;
  for (const { entry, data } of parts) {
    const room = totalCap - total;
    const count = await countEntry(entry, data, room);
    if (count.over && (entry.method === 0 || room < entry.uncompressedSize)) {
      throw bomb(`the entries inflate past ${mb(totalCap)} in total`);
    }
    if (count.over)
      throw bomb(`${entry.name} inflates past its declared ${sizeText(entry.uncompressedSize)}`);
    total += count.bytes;
  }
}

function located(bytes: Uint8Array, entries: ZipEntry[]): Part[] {
  if (entries.length > MAX_ENTRIES) {
    throw new ZipDirectoryError(`too many entries (${entries.length}; at most ${MAX_ENTRIES})`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return entries.map((e) => locate(bytes, dv, e));
}

/**
 * The archive to hand to the parser, after counting what every entry really inflates to. Refuses
 * (AppError 'refused') a zip bomb or an archive whose entries cannot be located; `kind` names the
 * document in the second case ("Word document", "spreadsheet"). `totalCap` is for tests.
 */
export async function verifiedZip(
  bytes: Uint8Array,
  kind: string,
  totalCap = BOMB_TOTAL_BYTES,
): Promise<Uint8Array> {
  try {
    const entries = readZipDirectory(bytes);
    assertNotZipBomb(entries);
    const parts = located(bytes, entries);
    assertNoOverlap(parts);
    await countInflated(parts, totalCap);
    return rebuildZip(bytes, parts);
  } catch (err) {
    if (!(err instanceof ZipDirectoryError)) throw err;
    throw new AppError('refused', `corrupt or unreadable ${kind}: ${err.message}`);
  }
}
