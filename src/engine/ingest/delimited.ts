/**
 * Delimiter sniffing for CSV/TSV ([F1] in docs/FORMATS.md), from the content alone: detection
 * (detect.ts) and extraction (csv.ts) must agree, and a locator is read back without the file name.
 */

const CANDIDATES = ['\t', ',', ';', '|'] as const;
const SAMPLE_CHARS = 65_536;
const SAMPLE_LINES = 20;
const MIN_LINES = 3;

/** Occurrences of `d` outside double quotes in one line (a quote left open ends the count). */
function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === d && !quoted) n++;
  }
  return n;
}

function sampleLines(text: string): string[] {
  const sample = text.slice(0, SAMPLE_CHARS);
  const lines = sample.split(/\r?\n/);
  // The last line of a cut sample may be cut too.
  if (text.length > SAMPLE_CHARS) lines.pop();
  return lines.filter((l) => l.trim() !== '').slice(0, SAMPLE_LINES);
}

/** Excel's `sep=;` first line, which names the delimiter of the lines after it. */
export const SEP_LINE = /^"?sep=(.)"?$/i;

/**
 * The delimiter a `sep=` first line names, else the candidate the first non-blank line holds
 * most often, comma if none.
 */
export function sniffDelimiter(text: string): string {
  const first = sampleLines(text)[0] ?? '';
  const sep = first.trim().match(SEP_LINE);
  if (sep) return sep[1]!;
  let best: string = ',';
  let bestCount = 0;
  for (const d of CANDIDATES) {
    const n = countOutsideQuotes(first, d);
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Whether a text not named .csv/.tsv is clearly a table: at least three lines that all hold the
 * same number of one delimiter (one tab, or two commas/semicolons, at least), so prose with commas
 * does not qualify.
 */
export function looksDelimited(text: string): boolean {
  const lines = sampleLines(text);
  if (lines.length < MIN_LINES) return false;
  return CANDIDATES.slice(0, 3).some((d) => {
    const first = countOutsideQuotes(lines[0]!, d);
    if (first < (d === '\t' ? 1 : 2)) return false;
    return lines.every((l) => countOutsideQuotes(l, d) === first);
  });
}
