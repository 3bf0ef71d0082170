/**
 * YAML front matter of a tree document (docs/TREES.md): where it is, and what the tree reads from
 * it (title, name, id, summary/description, status and its replacement, the other facts).
 *
 * Front matter is GitHub's: a first line `---` and a closing `---` (or `...`) line; without a
 * closing line there is none, and none when its YAML is valid but a plain text or a list (the
 * `---` lines were thematic breaks). Its lines stay in the document (they count for line numbers
 * and size) but are never Markdown. YAML that does not parse gives no data (at most 2,000 lines
 * are looked at for the closing line).
 */
import { parseDocument as parseYaml } from 'yaml';

export type FrontMatter = {
  /** Lines the front matter spans (0 when there is none). */
  lines: number;
  title: string | null;
  name: string | null;
  id: string | null;
  summary: string | null;
  /** Lower case, trimmed. */
  status: string | null;
  supersededBy: string | null;
  /** `key: value` for each other scalar (or list of scalars) field, in the order written. */
  facts: string[];
};

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;
/** Front matter is read only this far: a longer "front matter" is a document that opens on `---`. */
const MAX_FRONT_MATTER_LINES = 2_000;
/** Keys the tree reads for itself, so they are not repeated among the facts. */
const OWN_KEYS = new Set(['title', 'summary', 'description']);
const SUPERSEDED_KEYS = ['supersededBy', 'superseded_by', 'superseded-by'];

const EMPTY: FrontMatter = {
  lines: 0,
  title: null,
  name: null,
  id: null,
  summary: null,
  status: null,
  supersededBy: null,
  facts: [],
};

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') {
    const text = value.replace(/\s+/g, ' ').trim();
    return text === '' ? null : text;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
  return null;
}

function listText(value: unknown): string | null {
  if (!Array.isArray(value)) return scalarText(value);
  const parts = value.map(scalarText);
  if (parts.some((p) => p === null) || parts.length === 0) return null;
  return parts.join(', ');
}

/** Where front matter ends: the number of lines it spans, including both fences; 0 when none. */
function frontMatterLines(text: string): number {
  const first = text.indexOf('\n');
  if (first < 0 || !OPEN.test(text.slice(0, first).replace(/\r$/, ''))) return 0;
  let at = first + 1;
  for (let line = 2; line <= MAX_FRONT_MATTER_LINES && at < text.length; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (CLOSE.test(text.slice(at, end).replace(/\r$/, ''))) return line;
    if (nl < 0) break;
    at = nl + 1;
  }
  return 0;
}

/** Reads the front matter at the start of a text (its BOM already removed). */
export function readFrontMatter(text: string): FrontMatter {
  const lines = frontMatterLines(text);
  if (lines === 0) return { ...EMPTY, facts: [] };
  let end = 0;
  for (let i = 0; i < lines - 1; i++) end = text.indexOf('\n', end) + 1;
  const body = text.slice(text.indexOf('\n') + 1, end);
  const fm: FrontMatter = { ...EMPTY, lines, facts: [] };
  let data: unknown;
  try {
    const doc = parseYaml(body, { prettyErrors: false, uniqueKeys: false });
    if (doc.errors.length > 0) return fm;
    data = doc.toJS({ mapAsMap: true, maxAliasCount: 100 });
  } catch {
    return fm;
  }
  // Valid YAML that is a plain text or a list is no front matter: the `---` was a thematic break.
  if (data !== null && data !== undefined && !(data instanceof Map)) return { ...EMPTY, facts: [] };
  if (!(data instanceof Map)) return fm;
  const get = (key: string): unknown => data.get(key);
  fm.title = scalarText(get('title'));
  fm.name = scalarText(get('name'));
  fm.id = scalarText(get('id'));
  fm.summary = scalarText(get('summary')) ?? scalarText(get('description'));
  const status = scalarText(get('status'));
  // `status: Superseded by ADR-005` names its replacement in the status itself: the status is
  // then its first word, and the rest is the replacement (unless a field names it).
  const named = status ? /^([A-Za-z]+)\s+by\s+(.+)$/i.exec(status) : null;
  fm.status = named?.[1] ? named[1].toLowerCase() : status ? status.toLowerCase() : null;
  for (const key of SUPERSEDED_KEYS) {
    const by = listText(get(key));
    if (by) {
      fm.supersededBy = by;
      break;
    }
  }
  if (!fm.supersededBy && named?.[2]) fm.supersededBy = named[2].trim();
  for (const [key, value] of data) {
    const name = scalarText(key);
    if (name === null || OWN_KEYS.has(name)) continue;
    const text = listText(value);
    if (text !== null) fm.facts.push(`${name}: ${text}`);
  }
  return fm;
}
