/**
 * Text in the multi-byte legacy encodings of Japanese, Chinese and Korean ([F23] in
 * docs/FORMATS.md): Shift JIS (what Excel in Japan saves a CSV in), EUC-JP, GBK/GB18030, Big5 and
 * EUC-KR. Which one is decided by jschardet (Mozilla's universal charset detector, which VS Code
 * uses too), trusted only when a CJK encoding is its first answer; its one-byte answers are not
 * used (text-decode.ts scores those itself). The bytes are decoded character by character, each
 * character's bytes found by the encoding's lead-byte rules and decoded on their own by Node's
 * TextDecoder, so the text and its byte offsets agree by construction, and a slice that starts
 * on a character reads back exactly what extraction read there.
 */
import { createRequire } from 'node:module';

/**
 * jschardet takes tens of milliseconds to load, and most processes (an agent's MCP server, a
 * one-shot CLI command) never meet a file that is not UTF-8: it is loaded on the first one.
 */
const fromHere = createRequire(import.meta.url);
let detector: typeof import('jschardet') | null = null;
const jschardet = () => {
  detector ??= fromHere('jschardet') as typeof import('jschardet');
  return detector;
};

export type CjkEncoding = 'shift_jis' | 'euc-jp' | 'gb18030' | 'big5' | 'euc-kr';

export const CJK_NAMES: Record<CjkEncoding, string> = {
  shift_jis: 'Shift JIS (Japanese)',
  'euc-jp': 'EUC-JP (Japanese)',
  gb18030: 'GBK/GB18030 (Chinese)',
  big5: 'Big5 (Chinese)',
  'euc-kr': 'EUC-KR (Korean)',
};

const FROM_DETECTOR: Record<string, CjkEncoding> = {
  SHIFT_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  GB2312: 'gb18030',
  GB18030: 'gb18030',
  BIG5: 'big5',
  'EUC-KR': 'euc-kr',
};

/**
 * The detector's first answer must be at least this sure. Its confidence measures how typical the
 * characters are: a CSV of the same few names and places repeated scores about 0.33, prose 0.99;
 * a one-byte text's first answer is never a CJK one, and the reading must also decode cleanly.
 */
const MIN_CONFIDENCE = 0.2;
/** A reading with more than this share of undecodable characters is not the file's encoding. */
const MAX_REPLACED = 0.01;

export const isCjkEncoding = (e: string): e is CjkEncoding => e in CJK_NAMES;

/** How many bytes the character starting at `i` takes. */
function charBytes(bytes: Uint8Array, i: number, encoding: CjkEncoding): number {
  const b = bytes[i] ?? 0;
  if (b < 0x80) return 1;
  switch (encoding) {
    case 'shift_jis':
      return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc) ? 2 : 1;
    case 'euc-jp':
      if (b === 0x8e) return 2;
      if (b === 0x8f) return 3;
      return b >= 0xa1 && b <= 0xfe ? 2 : 1;
    case 'gb18030': {
      if (b < 0x81 || b > 0xfe) return 1;
      const next = bytes[i + 1] ?? 0;
      return next >= 0x30 && next <= 0x39 ? 4 : 2;
    }
    default:
      return b >= 0x81 && b <= 0xfe ? 2 : 1;
  }
}

const decoders = new Map<CjkEncoding, InstanceType<typeof TextDecoder>>();
function decoderFor(encoding: CjkEncoding): InstanceType<typeof TextDecoder> {
  let d = decoders.get(encoding);
  if (!d) {
    d = new TextDecoder(encoding, { ignoreBOM: true });
    decoders.set(encoding, d);
  }
  return d;
}

/**
 * The text, and for each of its UTF-16 code units the bytes it stands for (all of a character's
 * bytes on its first unit, 0 on the rest). Runs of ASCII are decoded at once.
 */
export function decodeCjk(bytes: Uint8Array, encoding: CjkEncoding): { text: string; unitBytes: Uint8Array } {
  const decoder = decoderFor(encoding);
  const parts: string[] = [];
  const units: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    let j = i;
    while (j < bytes.length && (bytes[j] ?? 0) < 0x80) j++;
    if (j > i) {
      parts.push(decoder.decode(bytes.subarray(i, j)));
      for (let k = i; k < j; k++) units.push(1);
      i = j;
      continue;
    }
    const n = Math.min(charBytes(bytes, i, encoding), bytes.length - i);
    const char = decoder.decode(bytes.subarray(i, i + n));
    parts.push(char);
    units.push(n);
    for (let k = 1; k < char.length; k++) units.push(0);
    i += n;
  }
  return { text: parts.join(''), unitBytes: Uint8Array.from(units) };
}

/** The detector reads this much (about 13 ms; 64 KB took 52 ms, for the same answers). */
const DETECTOR_BYTES = 16_384;
/** Text with fewer non-ASCII bytes than this share is Western text with a few accents, not CJK. */
const MIN_HIGH_SHARE = 0.01;

/** The CJK encoding of these (not UTF-8) bytes, or null when they are not in one. */
export function likeliestCjk(bytes: Uint8Array): CjkEncoding | null {
  const sample = bytes.subarray(0, DETECTOR_BYTES);
  let high = 0;
  for (const b of sample) if (b >= 0x80) high++;
  if (high < sample.length * MIN_HIGH_SHARE) return null;
  const [first] = jschardet().detectAll(Buffer.from(sample).toString('latin1'));
  const encoding = first ? FROM_DETECTOR[first.encoding.toUpperCase()] : undefined;
  if (!encoding || !first || first.confidence < MIN_CONFIDENCE) return null;
  const text = decoderFor(encoding).decode(sample);
  const replaced = text.match(/\ufffd/g)?.length ?? 0;
  // The sample may end inside a character: one replacement there is not a wrong reading.
  return replaced - 1 > text.length * MAX_REPLACED ? null : encoding;
}
