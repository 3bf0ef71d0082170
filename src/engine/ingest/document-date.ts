/**
 * The date a document states about itself ([R2] in docs/RETRIEVAL.md): Markdown front matter,
 * PDF metadata, Office core properties. Search weighs freshness by `occurred_at`, and a file's
 * modified time says when the copy was made, not when the text was written: a two-year-old policy
 * copied today is still two years old.
 *
 * Only dates that can be meant are kept: after 1900, and not more than a day ahead of now (the
 * zero dates of tools, 1601, 1899-12-30, the Unix epoch, and the clocks of broken machines say
 * nothing about when the knowledge is from). Dates without a zone are read as UTC, so the same
 * file gets the same date on every machine.
 */

/** A stated date and where it was stated ("front matter `date`", "PDF ModDate"). */
export type DocumentDate = { at: string; from: string };

const EARLIEST = Date.UTC(1900, 0, 2);
const AHEAD_MS = 86_400_000;
const ISO =
  /^(\d{4})-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
/** A non-ISO date ("15 Jan 2023", "January 15, 2023") must name a year: V8 reads "version 3" as 2001. */
const HAS_YEAR = /(^|\D)(19|20)\d{2}(\D|$)/;

function plausible(ms: number, now: number): string | null {
  if (Number.isNaN(ms) || ms < EARLIEST || ms > now + AHEAD_MS || ms === 0) return null;
  return new Date(ms).toISOString();
}

function fromIso(m: RegExpMatchArray): number {
  const [, y, mo, d = '1', h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const two = (v: string) => v.padStart(2, '0');
  const z = !zone || zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return Date.parse(`${y}-${two(mo ?? '1')}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${frac}${z}`);
}

/** A date as people and tools write it (a YAML value, a core property, a parsed PDF date), or null. */
export function statedDate(value: unknown, now = Date.now()): string | null {
  if (value instanceof Date) return plausible(value.getTime(), now);
  if (typeof value === 'number') {
    // A bare year (`date: 2023`); any other number is not a date anyone wrote.
    return Number.isInteger(value) ? plausible(Date.UTC(value, 0, 1), now) : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d{4}$/.test(text)) return plausible(Date.UTC(Number(text), 0, 1), now);
  const iso = text.match(ISO);
  if (iso) return plausible(fromIso(iso), now);
  if (!HAS_YEAR.test(text) || text.length > 64) return null;
  const utc = Date.parse(`${text} UTC`);
  return plausible(Number.isNaN(utc) ? Date.parse(text) : utc, now);
}

/** The most recent of the dates offered (the document's latest revision), with where it came from. */
export function latestDate(candidates: readonly { value: unknown; from: string }[]): DocumentDate | null {
  let best: DocumentDate | null = null;
  for (const c of candidates) {
    const at = statedDate(c.value);
    if (at && (!best || at > best.at)) best = { at, from: c.from };
  }
  return best;
}

/** The first date offered that can be read, in the caller's order of preference. */
export function firstDate(candidates: readonly { value: unknown; from: string }[]): DocumentDate | null {
  for (const c of candidates) {
    const at = statedDate(c.value);
    if (at) return { at, from: c.from };
  }
  return null;
}

/**
 * The file's health note that records where its `occurred_at` came from. It travels with the file
 * (health syncs with the item), so every replica shows the same "Dated" for it; the app shows it
 * as the date in the file's meta, not among the ingest notes.
 */
const DATED = 'dated by ';

export function datedNote(from: string): string {
  return `${DATED}${from}`;
}

export function isDatedNote(note: string): boolean {
  return note.startsWith(DATED);
}

/** Where the date came from, when one of these notes says so. */
export function datedFrom(notes: readonly string[]): string | null {
  const note = notes.find(isDatedNote);
  return note ? note.slice(DATED.length) : null;
}
