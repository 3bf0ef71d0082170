/**
 * Maps character offsets of decoded text to byte offsets of the raw file and to line numbers.
 * Both are cursors that walk from their last position, so mapping the (nearly monotonic) chunk
 * boundaries of a file costs O(n) in total instead of O(n) per chunk.
 */
import type { TextEncoding } from './text-decode.ts';

/** Bytes that code unit `code` occupies; a surrogate pair's bytes are all counted on its high half. */
function unitBytes(encoding: TextEncoding, code: number): number {
  switch (encoding) {
    case 'windows-1252':
    case 'windows-1251':
    case 'koi8-r':
    case 'ibm866':
    case 'ibm500':
      return 1;
    case 'shift_jis':
    case 'euc-jp':
    case 'gb18030':
    case 'big5':
    case 'euc-kr':
      throw new Error(`byte offsets in ${encoding} need the decoder's unit sizes`);
    case 'utf-16le':
    case 'utf-16be':
      return 2;
    case 'utf-32le':
    case 'utf-32be':
      return code >= 0xdc00 && code <= 0xdfff ? 0 : 4;
    default:
      if (code < 0x80) return 1;
      if (code < 0x800) return 2;
      if (code >= 0xd800 && code <= 0xdbff) return 4;
      if (code >= 0xdc00 && code <= 0xdfff) return 0;
      return 3;
  }
}

/**
 * `units`: each code unit's bytes, given for a multi-byte legacy encoding (text-decode-cjk.ts),
 * where they cannot be told from the character.
 */
export function makeByteMapper(
  text: string,
  encoding: TextEncoding,
  base: number,
  units?: Uint8Array,
): (pos: number) => number {
  const size = units ? (i: number) => units[i] ?? 0 : (i: number) => unitBytes(encoding, text.charCodeAt(i));
  let char = 0;
  let byte = base;
  return (pos) => {
    while (char < pos) byte += size(char++);
    while (char > pos) byte -= size(--char);
    return byte;
  };
}

/** Returns the 1-based line of the character at `pos` (lines split on \n). */
function makeLineMapper(text: string): (pos: number) => number {
  let char = 0;
  let line = 1;
  return (pos) => {
    while (char < pos) if (text.charCodeAt(char++) === 10) line++;
    while (char > pos) if (text.charCodeAt(--char) === 10) line--;
    return line;
  };
}

/** Line span of [start, end): the lines of its first and its last character. */
export type LineSpan = { lineStart: number; lineEnd: number };

export function makeLineSpanner(text: string): (start: number, end: number) => LineSpan {
  const startLine = makeLineMapper(text);
  const endLine = makeLineMapper(text);
  return (start, end) => ({ lineStart: startLine(start), lineEnd: endLine(Math.max(start, end - 1)) });
}
