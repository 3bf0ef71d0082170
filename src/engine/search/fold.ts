/**
 * One entry per source ([R6] in docs/RETRIEVAL.md): a file and its own sections fold into one
 * hit at the best position any of them reached, shown by the passage that matched: its best
 * section among the candidates, else the section of that file that best matches the query's
 * words, else (nothing inside it matches them) the file itself, by its opening. The other
 * passages of the same source ride along as `also`, cited, without their text.
 */
import { type Db, stmt } from '../db/driver.ts';
import { ftsQuery } from './keyword.ts';

export type FoldCandidate = {
  rowid: number;
  id: string;
  storage_kind: string;
  file_id: string | null;
  score: number;
};

/** A source and its candidates, best first; its score is its best candidate's. */
type Folded = { score: number; members: FoldCandidate[] };

export type FoldedEntry = {
  score: number;
  /** The passage shown and cited. */
  shown: number;
  /** The best few other sections of the same source among the candidates, best first. */
  also: number[];
  /** How many other sections of the source there are among the candidates. */
  more: number;
};

/** How many of a source's other passages a hit carries (its `more` counts them all). */
const ALSO_MAX = 5;

const sourceOf = (c: FoldCandidate) => (c.storage_kind === 'section' && c.file_id ? c.file_id : c.id);

/**
 * The best `k` sources of the ranked candidates, each with its members in rank order; members
 * that rank below the k-th source still count toward their source. choosePassages may pass over
 * copies, so callers ask for a few more sources than they show.
 */
export function foldBySource(ranked: readonly FoldCandidate[], k: number): Folded[] {
  const bySource = new Map<string, Folded>();
  for (const c of ranked) {
    const source = sourceOf(c);
    const entry = bySource.get(source);
    if (entry) entry.members.push(c);
    else if (bySource.size < k) bySource.set(source, { score: c.score, members: [c] });
  }
  return [...bySource.values()];
}

/** A file of at most this many sections is read whole to find its best one; a longer one asks FTS5. */
const SECTIONS_READ = 400;
/** The most matching sections of a long file weighed for the passage it shows. */
const SECTIONS_WEIGHED = 200;

/**
 * The file's section that best matches the query's words: the one holding the most of them, then
 * the most occurrences of them, then the first. A file's sections have neighbouring rowids, so a
 * file of up to SECTIONS_READ sections is read as one range of rows; a longer one's candidates are
 * the sections FTS5 finds holding any of the words in that range (slower: FTS5 walks each term's
 * postings to the range, ~13 ms at 100k sections for a common word). Not BM25: FTS5's bm25()
 * counts every term's rows in the whole index on each call (its IDF). Null when none matches: a
 * file that won by its vector matched its opening, which is what its vector is of (its body,
 * src/engine/indexing/indexer.ts).
 */
function bestSectionOf(db: Db, fileId: string, terms: readonly string[]): number | null {
  if (terms.length === 0) return null;
  const range = stmt(
    db,
    `SELECT min(rowid) AS lo, max(rowid) AS hi, count(*) AS n FROM items
     WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL AND indexed = 1`,
  ).get(fileId) as { lo: number | null; hi: number | null; n: number };
  if (range.lo === null || range.hi === null) return null;
  const live = `i.file_id = ? AND i.storage_kind = 'section' AND i.retired_at IS NULL AND i.indexed = 1`;
  const rows = (
    range.n <= SECTIONS_READ
      ? stmt(
          db,
          `SELECT i.rowid AS rowid, i.label AS label, i.body AS body FROM items i
           WHERE i.rowid BETWEEN ? AND ? AND ${live} ORDER BY i.rowid`,
        ).all(range.lo, range.hi, fileId)
      : stmt(
          db,
          `SELECT i.rowid AS rowid, i.label AS label, i.body AS body
           FROM items_fts JOIN items i ON i.rowid = items_fts.rowid
           WHERE items_fts MATCH ? AND items_fts.rowid BETWEEN ? AND ? AND ${live}
           LIMIT ${SECTIONS_WEIGHED}`,
        ).all(ftsQuery(terms), range.lo, range.hi, fileId)
  ) as { rowid: number; label: string; body: string }[];
  const stems = stemsOf(terms);
  let best: number | null = null;
  let bestCovered = 0;
  let bestCount = 0;
  for (const row of rows) {
    if (headingOnly(row.body)) continue;
    const { covered, count } = coverage(ownText(row), stems);
    if (covered > bestCovered || (covered === bestCovered && count > bestCount)) {
      best = row.rowid;
      bestCovered = covered;
      bestCount = count;
    }
  }
  return best;
}

/**
 * A section that is its heading alone (a document's `# Title` line with its text under the next
 * headings): it matches the title's words and says nothing, so it is not what a hit shows.
 */
function headingOnly(body: string): boolean {
  const text = body.trim();
  return /^#{1,6}[ \t][^\n]*$/.test(text) || text === '';
}

/**
 * What tells a file's sections apart: each one's own heading and text. Its label starts with the
 * file's title and the headings above it, which every section under them shares.
 */
const ownText = (row: { label: string; body: string }) =>
  `${row.label.split(' > ').at(-1) ?? ''}\n${row.body}`;

/** A word counts with its inflections: its first letters but two when it is long. */
const stemsOf = (terms: readonly string[]) => terms.map((t) => (t.length > 5 ? t.slice(0, t.length - 2) : t));

/** How many of the stems a text holds, and how often they occur in it. */
function coverage(text: string, stems: readonly string[]): { covered: number; count: number } {
  const lower = text.toLowerCase();
  let covered = 0;
  let count = 0;
  for (const s of stems) {
    let at = lower.indexOf(s);
    if (at < 0) continue;
    covered++;
    while (at >= 0 && count < 10_000) {
      count++;
      at = lower.indexOf(s, at + s.length);
    }
  }
  return { covered, count };
}

/** How many of a source's best-ranked sections are weighed for the one it shows. */
const SHOWN_FROM = 6;

/**
 * Of a source's best-ranked matching sections, the one holding the most of the question's words
 * (with their inflections, stemsOf); ties go to the better rank. BM25 may rank first a section that
 * repeats one word over one that holds them all. A heading alone (headingOnly) comes last, and
 * `undefined` when it is all that matched: the caller then looks in the rest of the file.
 */
function mostCovering(db: Db, sections: readonly number[], terms: readonly string[]): number | undefined {
  const read = stmt(db, 'SELECT label, body FROM items WHERE rowid = ?');
  const rows = sections.slice(0, SHOWN_FROM).flatMap((rowid) => {
    const row = read.get(rowid) as { label: string; body: string } | undefined;
    return row && !headingOnly(row.body) ? [{ rowid, text: ownText(row) }] : [];
  });
  if (rows.length < 2 || terms.length < 2) return rows[0]?.rowid;
  const stems = stemsOf(terms);
  let best = rows[0]?.rowid;
  let most = -1;
  for (const { rowid, text } of rows) {
    const { covered } = coverage(text, stems);
    if (covered > most) {
      most = covered;
      best = rowid;
    }
  }
  return best;
}

/**
 * Which passage each folded source shows, and which of its other passages ride along: the best
 * `k` sources whose shown passage (label and text) differs from every one shown above it. A copy
 * of a passage already shown, the same document added twice or a translation folder that kept the
 * original's text, rides along with the first as one more passage instead of taking a place
 * ([R6] in docs/RETRIEVAL.md).
 */
export function choosePassages(
  db: Db,
  folded: readonly Folded[],
  terms: readonly string[],
  k: number,
): FoldedEntry[] {
  const read = stmt(db, 'SELECT label, body FROM items WHERE rowid = ?');
  const shownText = new Map<string, FoldedEntry>();
  const entries: FoldedEntry[] = [];
  for (const { score, members } of folded) {
    if (entries.length >= k) break;
    const sections = members.filter((m) => m.storage_kind === 'section').map((m) => m.rowid);
    const first = members[0] as FoldCandidate;
    const fileId = first.storage_kind === 'file' ? first.id : first.file_id;
    // No section with text among the candidates (none, or a heading alone): the file's section
    // that best matches the words, else the first candidate.
    const shown =
      mostCovering(db, sections, terms) ??
      (fileId && (first.storage_kind === 'file' || first.storage_kind === 'section')
        ? bestSectionOf(db, fileId, terms)
        : null) ??
      first.rowid;
    const row = read.get(shown) as { label: string; body: string } | undefined;
    const text = row ? `${row.label}\n${row.body}` : null;
    const earlier = text === null ? undefined : shownText.get(text);
    if (earlier) {
      if (earlier.also.length < ALSO_MAX) earlier.also.push(shown);
      earlier.more++;
      continue;
    }
    const others = sections.filter((r) => r !== shown);
    const entry = { score, shown, also: others.slice(0, ALSO_MAX), more: others.length };
    if (text !== null) shownText.set(text, entry);
    entries.push(entry);
  }
  return entries;
}
