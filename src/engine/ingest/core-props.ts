/**
 * The date an Office document (DOCX, XLSX) states about itself ([R2] in docs/RETRIEVAL.md): its
 * core properties, `docProps/core.xml`, `dcterms:modified` (written on every save) else
 * `dcterms:created`. Read from the archive zip-verify.ts has already counted and rebuilt, so the
 * part inflated here is one whose real size is known; anything unexpected gives no date, never
 * an error (the text is what matters, the date only refines its freshness).
 */
import { inflateRawSync } from 'node:zlib';
import { type DocumentDate, firstDate } from './document-date.ts';
import { readZipDirectory } from './zip-directory.ts';

const CORE_PART = 'docprops/core.xml';
/** Core properties are a few hundred bytes; a larger part is not one to read for a date. */
const CORE_MAX_BYTES = 256 * 1024;
const LOCAL_SIG = 0x04034b50;

function corePartText(zip: Uint8Array): string | null {
  // OPC part names compare without case (ECMA-376 part 2), so `docProps/Core.xml` is the same part.
  const entry = readZipDirectory(zip).find((e) => e.name.toLowerCase() === CORE_PART);
  if (!entry || entry.uncompressedSize > CORE_MAX_BYTES || entry.flags & 0x0001) return null;
  const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || dv.getUint32(at, true) !== LOCAL_SIG) return null;
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const data = zip.subarray(start, start + entry.compressedSize);
  let raw: Uint8Array;
  if (entry.method === 0) raw = data;
  else if (entry.method === 8) raw = inflateRawSync(data, { maxOutputLength: CORE_MAX_BYTES });
  else return null;
  return new TextDecoder('utf-8').decode(raw);
}

/** The text of the first element with this local name, whatever namespace prefix it was given. */
function element(xml: string, name: string): string | null {
  const m = xml.match(new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*>([^<]{1,100})</(?:[\\w.-]+:)?${name}>`));
  return m?.[1]?.trim() ?? null;
}

export function coreDate(zip: Uint8Array): DocumentDate | null {
  try {
    const xml = corePartText(zip);
    if (!xml) return null;
    return firstDate([
      { value: element(xml, 'modified'), from: 'document properties (modified)' },
      { value: element(xml, 'created'), from: 'document properties (created)' },
    ]);
  } catch {
    return null;
  }
}
