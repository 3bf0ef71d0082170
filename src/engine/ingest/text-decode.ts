/**
 * Decoding of plain-text files (md, txt, csv, html): BOMs, BOM-less UTF-16, UTF-8, and for other
 * bytes a legacy encoding: a Japanese, Chinese or Korean one (text-decode-cjk.ts, [F23] in
 * docs/FORMATS.md), else the likeliest one-byte one: Windows-1252, a Cyrillic one (Windows-1251,
 * KOI8-R, DOS 866) or EBCDIC ([F22]). Detection is deterministic from the bytes alone, so a
 * locator can be read back by re-detecting.
 */
import { AppError } from '#shared/errors.ts';
import { CP500 } from './ebcdic.ts';
import { CJK_NAMES, type CjkEncoding, decodeCjk, isCjkEncoding, likeliestCjk } from './text-decode-cjk.ts';

/** One byte a character, each byte a character: byte offsets are character offsets. */
export type OneByteEncoding = 'windows-1252' | 'windows-1251' | 'koi8-r' | 'ibm866' | 'ibm500';
export type LegacyEncoding = OneByteEncoding | CjkEncoding;

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | LegacyEncoding;

const isOneByteEncoding = (e: string): e is OneByteEncoding =>
  e === 'windows-1252' || e === 'windows-1251' || e === 'koi8-r' || e === 'ibm866' || e === 'ibm500';

/** Not UTF-8 or UTF-16/32: the health already says "not UTF-8: decoded as …". */
export const isLegacyEncoding = (e: string): e is LegacyEncoding => isOneByteEncoding(e) || isCjkEncoding(e);

/** Where the decoded text lives in the raw bytes: [dataStart, dataEnd) after the BOM. */
export type EncodingInfo = { encoding: TextEncoding; dataStart: number; dataEnd: number; health: string[] };

/**
 * `unitBytes`, for a multi-byte legacy encoding only: the raw bytes each UTF-16 code unit of the
 * text stands for (offset-map.ts needs it; the others map by rule).
 */
export type DecodedText = EncodingInfo & { text: string; unitBytes?: Uint8Array };

const SAMPLE_BYTES = 65_536;

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((b, i) => bytes[i] === b);
}

function unitAligned(bytes: Uint8Array, start: number, unit: number): number {
  return start + Math.floor((bytes.length - start) / unit) * unit;
}

function fromBom(bytes: Uint8Array): EncodingInfo | null {
  // UTF-32LE must be tested before UTF-16LE: its BOM starts with the UTF-16LE BOM.
  const boms: [number[], TextEncoding, number][] = [
    [[0xff, 0xfe, 0, 0], 'utf-32le', 4],
    [[0, 0, 0xfe, 0xff], 'utf-32be', 4],
    [[0xef, 0xbb, 0xbf], 'utf-8', 1],
    [[0xff, 0xfe], 'utf-16le', 2],
    [[0xfe, 0xff], 'utf-16be', 2],
  ];
  for (const [bom, encoding, unit] of boms) {
    if (startsWith(bytes, bom)) {
      const dataEnd = unitAligned(bytes, bom.length, unit);
      return { encoding, dataStart: bom.length, dataEnd, health: [] };
    }
  }
  return null;
}

type NulStats = { even: number; odd: number; controls: number; sample: number };

function nulStats(bytes: Uint8Array): NulStats {
  const n = Math.min(bytes.length, SAMPLE_BYTES);
  const stats: NulStats = { even: 0, odd: 0, controls: 0, sample: n };
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) {
      if (i % 2 === 0) stats.even++;
      else stats.odd++;
    } else if (b < 9 || (b > 13 && b < 32 && b !== 27)) {
      stats.controls++;
    }
  }
  return stats;
}

/** BOM-less UTF-16 shows as NULs in every other byte (ASCII's high byte); anything else with NULs is binary. */
function fromNulPattern(bytes: Uint8Array): EncodingInfo | 'binary' | null {
  const s = nulStats(bytes);
  const pairs = Math.max(1, Math.floor(s.sample / 2));
  if (s.odd >= pairs * 0.3 && s.even <= pairs * 0.05) {
    return { encoding: 'utf-16le', dataStart: 0, dataEnd: unitAligned(bytes, 0, 2), health: [] };
  }
  if (s.even >= pairs * 0.3 && s.odd <= pairs * 0.05) {
    return { encoding: 'utf-16be', dataStart: 0, dataEnd: unitAligned(bytes, 0, 2), health: [] };
  }
  const nuls = s.even + s.odd;
  if (nuls > s.sample * 0.001 || s.controls > s.sample * 0.1) return 'binary';
  return null;
}

/**
 * Null when the bytes are not UTF-8; else how many bytes at the end begin a character that the
 * file ends before finishing (a file cut at a size limit, a log being written): 0 to 3. One pass:
 * a streaming decoder holds back an unfinished last character instead of failing on it.
 */
function utf8Cut(bytes: Uint8Array): number | null {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back] as number;
    if (b >= 0x80 && b < 0xc0) continue; // a continuation byte: its lead is further back
    const needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needs > back ? back : 0;
  }
  return 0;
}

/** A cheap fingerprint so a cached detection is not reused for a buffer whose content was replaced. */
function fingerprint(bytes: Uint8Array): string {
  const step = Math.max(1, Math.floor(bytes.length / 64));
  let s = `${bytes.length}:`;
  for (let i = 0; i < bytes.length; i += step) s += bytes[i]!.toString(16);
  return s;
}

// Detecting validates the whole file as UTF-8 and may run the legacy detectors (tens of ms);
// reading back every chunk of a file would repeat that, so detections are remembered per buffer.
const detections = new WeakMap<Uint8Array, { print: string; info: EncodingInfo }>();

/** Decides the encoding; throws 'refused' for binary content. */
export function detectEncoding(bytes: Uint8Array): EncodingInfo {
  const print = fingerprint(bytes);
  const hit = detections.get(bytes);
  if (hit && hit.print === print) return hit.info;
  const info = detect(bytes);
  detections.set(bytes, { print, info });
  return info;
}

function detect(bytes: Uint8Array): EncodingInfo {
  const bom = fromBom(bytes);
  if (bom && bom.encoding !== 'utf-8') return bom;
  const dataStart = bom ? 3 : 0;
  if (!bom) {
    const pattern = fromNulPattern(bytes);
    if (pattern === 'binary') throw new AppError('refused', 'binary content, not text');
    if (pattern) return pattern;
  }
  const data = bytes.subarray(dataStart);
  const cut = utf8Cut(data);
  if (cut === 0) return { encoding: 'utf-8', dataStart, dataEnd: bytes.length, health: [] };
  // Cut mid-character ([F24] in docs/FORMATS.md), if the rest holds another character of two
  // bytes or more: a Windows-1252 "café" ends in é, also the lead of a three-byte UTF-8 one.
  if (cut !== null && data.subarray(0, data.length - cut).some((x) => x >= 0x80)) {
    const what = cut === 1 ? 'its last byte is' : `its last ${cut} bytes are`;
    return {
      encoding: 'utf-8',
      dataStart,
      dataEnd: bytes.length - cut,
      health: [`ends in the middle of a character: ${what} not read`],
    };
  }
  const sample = data.subarray(0, SAMPLE_BYTES);
  const encoding = likeliestCjk(sample) ?? likeliestLegacy(sample);
  return {
    encoding,
    dataStart,
    dataEnd: bytes.length,
    health: [`not UTF-8: decoded as ${legacyName(encoding)}`],
  };
}

/** How health names an encoding this file can guess: "Windows-1251 (Cyrillic)", "Shift JIS (Japanese)". */
export const legacyName = (encoding: LegacyEncoding): string =>
  isCjkEncoding(encoding) ? CJK_NAMES[encoding] : LEGACY_NAMES[encoding];

const LEGACY_NAMES: Record<OneByteEncoding, string> = {
  'windows-1252': 'Windows-1252',
  'windows-1251': 'Windows-1251 (Cyrillic)',
  'koi8-r': 'KOI8-R (Cyrillic)',
  ibm866: 'DOS 866 (Cyrillic)',
  ibm500: 'EBCDIC 500 (mainframe)',
};
/** Tried in this order; a later one must read strictly better to be chosen. */
const LEGACY: readonly OneByteEncoding[] = ['windows-1252', 'windows-1251', 'koi8-r', 'ibm866', 'ibm500'];

const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;

/**
 * How plausibly `text` reads, by the characters its non-ASCII bytes became ([F22]): each counts +1
 * when it is a letter in a word of one script (Latin or Cyrillic) that reads as words do; -3 when
 * its word mixes the two scripts; -1 when it is a symbol, or its word has a capital after a small letter
 * (KOI8-R read as Windows-1251 gives "пРИВЕТ"), or its word is three or more accented Latin
 * letters and no plain ones (Russian read as Windows-1252 gives "ÐÒÉ×ÅÔ", where Western words
 * hold their few accented letters among plain ones).
 */
function plausibility(text: string): number {
  let score = 0;
  for (const word of text.split(/[^\p{L}\x80-\uffff]+/u)) {
    if (!NON_ASCII.test(word)) continue;
    let high = 0;
    let symbols = 0;
    let latin = 0;
    let plain = 0;
    let cyrillic = 0;
    let camel = false;
    let previousLower = false;
    for (const c of word) {
      const k = kindOf(c);
      if (k & HIGH) high++;
      if ((k & HIGH) !== 0 && (k & LETTER_BIT) === 0) symbols++;
      if ((k & HIGH) === 0 && (k & LETTER_BIT) !== 0) plain++;
      if (k & LATIN_BIT) latin++;
      else if (k & CYRILLIC_BIT) cyrillic++;
      if (previousLower && k & UPPER_BIT) camel = true;
      previousLower = (k & LOWER_BIT) !== 0;
    }
    if (high === 0) continue;
    // Mixed scripts is the surest sign of a wrong reading: it weighs three times.
    if (latin > 0 && cyrillic > 0) score -= 3 * high;
    else if (camel || (plain === 0 && latin >= 3)) score -= high;
    else score += high - 2 * symbols;
  }
  return score;
}

const NON_ASCII = /[\u0080-\uffff]/;
const HIGH = 1;
const LETTER_BIT = 2;
const LATIN_BIT = 4;
const CYRILLIC_BIT = 8;
const LOWER_BIT = 16;
const UPPER_BIT = 32;
/** What each character is, worked out once: a text has few distinct characters. */
const kinds = new Map<string, number>();
function kindOf(c: string): number {
  let k = kinds.get(c);
  if (k === undefined) {
    k =
      ((c.codePointAt(0) ?? 0) >= 0x80 ? HIGH : 0) |
      (LETTER.test(c) ? LETTER_BIT : 0) |
      (LATIN.test(c) ? LATIN_BIT : 0) |
      (CYRILLIC.test(c) ? CYRILLIC_BIT : 0) |
      (LOWER.test(c) ? LOWER_BIT : 0) |
      (UPPER.test(c) ? UPPER_BIT : 0);
    if (kinds.size < 4096) kinds.set(c, k);
  }
  return k;
}

const EBCDIC_MIN_PLAIN = 0.6;

function plainShare(text: string): number {
  const plain = text.match(/[A-Za-z ]/g)?.length ?? 0;
  return text.length > 0 ? plain / text.length : 0;
}

/** The legacy encoding whose reading of these (not UTF-8) bytes is the most plausible. */
function likeliestLegacy(sample: Uint8Array): OneByteEncoding {
  let best: OneByteEncoding = 'windows-1252';
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const encoding of LEGACY) {
    const text = decodeBytes(sample, encoding);
    // EBCDIC reads most of its text as ASCII, where plausibility does not look: it must read
    // mostly as plain letters and spaces to be a candidate at all.
    if (encoding === 'ibm500' && plainShare(text) < EBCDIC_MIN_PLAIN) continue;
    const score = plausibility(text);
    if (score > bestScore) {
      best = encoding;
      bestScore = score;
    }
  }
  return best;
}

function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const units = new Uint16Array(Math.floor(bytes.length / 4) * 2);
  let n = 0;
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    let cp = view.getUint32(i, littleEndian);
    // Invalid scalar values become U+FFFD so every 4-byte unit maps to whole code units.
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[n++] = 0xd800 + (cp >> 10);
      units[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      units[n++] = cp;
    }
  }
  return decodeUnits(units.subarray(0, n));
}

function decodeUnits(units: Uint16Array): string {
  const bytes = new Uint8Array(units.buffer, units.byteOffset, units.byteLength);
  // Uint16Array is host-endian; every supported Node platform is little-endian.
  return new TextDecoder('utf-16le', { ignoreBOM: true }).decode(bytes);
}

/** 0x80–0x9F of Windows-1252 (WHATWG table); every other byte is its own code point. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

function decodeTable(bytes: Uint8Array, table: Uint16Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) units[i] = table[bytes[i]!]!;
  return decodeUnits(units);
}

/** Node's TextDecoder('windows-1252') decodes as ISO-8859-1 (C1 controls instead of “ ” – …), so: by hand. */
function decodeCp1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    units[i] = b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b;
  }
  return decodeUnits(units);
}

/** Decodes raw bytes [start, end) that lie on code-unit boundaries of `encoding`. */
export function decodeBytes(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'utf-32le') return decodeUtf32(bytes, true);
  if (encoding === 'utf-32be') return decodeUtf32(bytes, false);
  if (encoding === 'windows-1252') return decodeCp1252(bytes);
  if (encoding === 'ibm500') return decodeTable(bytes, CP500);
  if (isCjkEncoding(encoding)) return decodeCjk(bytes, encoding).text;
  // Node's full ICU decodes the Cyrillic ones (WHATWG labels), one character a byte.
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
}

/** Raw bytes [start, end) on character boundaries, with `unitBytes` where offset-map.ts needs it. */
export function decodeSlice(
  bytes: Uint8Array,
  encoding: TextEncoding,
): { text: string; unitBytes?: Uint8Array } {
  if (isCjkEncoding(encoding)) return decodeCjk(bytes, encoding);
  return { text: decodeBytes(bytes, encoding) };
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const info = detectEncoding(bytes);
  return { ...info, ...decodeSlice(bytes.subarray(info.dataStart, info.dataEnd), info.encoding) };
}
