/**
 * The order of the tree (docs/TREES.md): folders first, then documents (a README.md, then an
 * index.md, first), each in name order; sections and cards in document order.
 *
 * "Name order" is locale-free so every machine builds the same tree: names compared case-
 * insensitively (lower case, by UTF-16 code unit), ties by the exact name. README.md and index.md
 * are recognised in any case.
 */
import type { Change } from './types.ts';

export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  if (a !== b) return a < b ? -1 : 1;
  return 0;
}

/** 0 for README.md, 1 for index.md, 2 for any other document name. */
export function readmeRank(name: string): number {
  const lower = name.toLowerCase();
  if (lower === 'readme.md') return 0;
  if (lower === 'index.md') return 1;
  return 2;
}

export function compareDocumentNames(a: string, b: string): number {
  return readmeRank(a) - readmeRank(b) || compareNames(a, b);
}

/** Dates as Git writes them, parsed once each (a tree compares the same few dates many times). */
const times = new Map<string, number>();

function timeOf(change: Change): number {
  let t = times.get(change.date);
  if (t === undefined) {
    if (times.size > 50_000) times.clear();
    const parsed = Date.parse(change.date);
    t = Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
    times.set(change.date, t);
  }
  return t;
}

/** Which change is later: by date, then by the date as written and the commit, so ties are stable. */
function compareChanges(a: Change, b: Change): number {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.subject !== b.subject) return a.subject < b.subject ? -1 : 1;
  return 0;
}

/** The latest of some changes (a copy), or null when none is known. */
export function latestChange(changes: Iterable<Change | null>): Change | null {
  let latest: Change | null = null;
  for (const change of changes) {
    if (change && (!latest || compareChanges(change, latest) > 0)) latest = change;
  }
  return latest ? { commit: latest.commit, date: latest.date, subject: latest.subject } : null;
}

/**
 * Which of two document paths comes first in tree order (docs/TREES.md [T6]): under the folder
 * both are in, a folder before a document, folders by name, documents README/index first, then
 * by name. The order of the tree depends on nothing else, so a document added or removed moves no
 * other document relative to the rest.
 */
export function compareTreePaths(a: string, b: string): number {
  if (a === b) return 0;
  let at = 0;
  for (;;) {
    const ea = a.indexOf('/', at);
    const eb = b.indexOf('/', at);
    // A folder segment is one followed by a slash; the last segment is the document's name.
    const sa = ea < 0 ? a.slice(at) : a.slice(at, ea);
    const sb = eb < 0 ? b.slice(at) : b.slice(at, eb);
    if (ea >= 0 && eb >= 0) {
      if (sa === sb) {
        at = ea + 1;
        continue;
      }
      return compareNames(sa, sb);
    }
    if (ea >= 0) return -1;
    if (eb >= 0) return 1;
    return compareDocumentNames(sa, sb);
  }
}
