/**
 * Line and size arithmetic for the tree (docs/TREES.md): lines as Git counts them, so a citation
 * opens on the same lines in any Git viewer. A newline ends a line; CRLF is one line ending (its
 * `\n`); a lone CR ends nothing; a file without a final newline still counts its last line.
 */

/** How many lines Git counts in a text: one per `\n`, plus a last line without a newline. */
export function gitLineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  if (text.length > 0 && text.charCodeAt(text.length - 1) !== 10) count++;
  return count;
}

/**
 * The character offset where each line starts: `starts[k]` is the start of line `k + 1`. The
 * array has one more entry than there are lines (the text's length), so the characters of lines
 * `a..b` are `starts[b] - starts[a - 1]`.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (at + 1 < text.length) starts.push(at + 1);
  }
  starts.push(text.length);
  return starts;
}

/** Characters of the lines `from..to` (1-based, inclusive); 0 when the range is empty. */
export function charsOfLines(starts: number[], from: number, to: number): number {
  if (to < from || from < 1) return 0;
  const last = starts.length - 1;
  const begin = starts[Math.min(from - 1, last)] ?? 0;
  const end = starts[Math.min(to, last)] ?? begin;
  return end - begin;
}

/** About four characters per token. */
export function tokensOf(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The UTF-8 size of a text in bytes, without allocating its encoding. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
