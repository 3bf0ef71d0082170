/**
 * Summaries without a model (docs/TREES.md): the first source that applies, in the seed's order,
 * names the summary's `summarySource`. A summary is at most 240 characters, cut on a word
 * boundary with an ellipsis.
 *
 * The order, for a document: front matter summary/description → its own text (`text` when it is
 * all prose and fits, else `paragraph`: the first paragraph among its first four blocks, with the
 * row keys of a table right after it) → for a document that opens on its sections (no text of its
 * own), its section named Summary, Purpose, … Context, when that section is in prose → its first
 * block (`fields`, `list`, `table`, `diagram`, `code`) → its first section in prose (document
 * order, any depth) → front matter `facts` → `children` (the titles of its sections) → `none`.
 * A section or card: its text → its first block → its children's titles → none.
 * A folder or the root (in assemble): `readme` → `children` (one document) → `layout`.
 *
 * Choices where the seed is silent:
 * - "in prose" means the node's own summary came from its text (`text` or `paragraph`);
 * - a section name matches ignoring case, a leading number (`2.`, `3.1`) and a trailing colon;
 * - `fields` applies to any node whose first block is a list of `**key:** value` items (the seed
 *   names cards; documents such as ADRs open on the same fields);
 * - block quotes are prose (a GitHub alert marker such as `[!NOTE]` dropped); raw HTML blocks
 *   and thematic breaks are not blocks; a paragraph with no text (only images) is no block;
 * - a row key is the first cell, with the second after it when the first is a short code: at most
 *   12 characters, no spaces, and a digit in it or all capitals (`R-01`, `42`, `GET`).
 */
import type { Block } from './markdown.ts';
import type { SummarySource } from './types.ts';

export const MAX_SUMMARY = 240;

export type Summary = { summary: string; summarySource: SummarySource };

export const NONE: Summary = { summary: '', summarySource: 'none' };

/** Collapses white space; over `max` characters, cuts on a word boundary and ends with `…`. */
export function cut(text: string, max = MAX_SUMMARY): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let end = max - 1;
  // Never split a surrogate pair.
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const space = flat.lastIndexOf(' ', end);
  if (space > max / 2) end = space;
  return `${flat.slice(0, end).replace(/[\s,;:.\-–—]+$/, '')}…`;
}

function make(text: string, source: SummarySource): Summary | null {
  const summary = cut(text);
  return summary ? { summary, summarySource: source } : null;
}

function isShortCode(cell: string): boolean {
  return (
    cell.length > 0 &&
    cell.length <= 12 &&
    !/\s/.test(cell) &&
    (/\d/.test(cell) || /^[A-Z][A-Z_-]*$/.test(cell))
  );
}

function rowKeys(rows: string[][]): string[] {
  return rows
    .map((cells) => {
      const first = cells[0] ?? '';
      const second = cells[1] ?? '';
      return isShortCode(first) && second ? `${first} ${second}` : first;
    })
    .filter((key) => key !== '');
}

/** `text` or `paragraph`, when the node has prose to show. */
function proseSummary(blocks: Block[]): Summary | null {
  if (blocks.length > 0 && blocks.every((b) => b.kind === 'paragraph')) {
    const whole = blocks.map((b) => b.text).join(' ');
    if (whole.length <= MAX_SUMMARY) return make(whole, 'text');
  }
  const at = blocks.slice(0, 4).findIndex((b) => b.kind === 'paragraph');
  const paragraph = blocks[at];
  if (paragraph?.kind !== 'paragraph') return null;
  const next = blocks[at + 1];
  if (next?.kind === 'table') {
    const keys = rowKeys(next.rows);
    if (keys.length > 0) {
      const rows = `Rows: ${keys.join('; ')}`;
      // The paragraph keeps at least half the room, the rows get the rest.
      const room = Math.max(MAX_SUMMARY / 2, MAX_SUMMARY - 1 - rows.length);
      return make(`${cut(paragraph.text, room)} ${rows}`, 'paragraph');
    }
  }
  return make(paragraph.text, 'paragraph');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The first block of a node, summarised by its kind. */
function blockSummary(blocks: Block[]): Summary | null {
  const first = blocks[0];
  if (!first) return null;
  switch (first.kind) {
    case 'paragraph':
      return make(first.text, 'paragraph');
    case 'list':
      return make(first.items.join(' · '), first.fields ? 'fields' : 'list');
    case 'table': {
      const keys = rowKeys(first.rows);
      const columns = first.columns.filter((c) => c !== '').join(', ');
      const rows = `${plural(first.rowCount, 'row')}${keys.length > 0 ? `: ${keys.join('; ')}` : ''}`;
      return make(columns ? `Columns: ${columns} · ${rows}` : rows, 'table');
    }
    case 'diagram':
      return make(`Diagram: ${first.diagram} (Mermaid)`, 'diagram');
    case 'code':
      return make(
        `Code${first.lang ? ` (${first.lang})` : ''}: ${first.firstLine || plural(first.lines, 'line')}`,
        'code',
      );
  }
}

/** The titles of what a node contains. */
function childrenSummary(titles: string[]): Summary | null {
  return titles.length > 0 ? make(titles.join(' · '), 'children') : null;
}

/** A section or card. */
export function sectionSummary(blocks: Block[], childTitles: string[]): Summary {
  return proseSummary(blocks) ?? blockSummary(blocks) ?? childrenSummary(childTitles) ?? NONE;
}

/** The section names a document that opens on its sections is summarised by, in this order. */
const SUMMARY_SECTIONS = [
  'summary',
  'purpose',
  'overview',
  'description',
  'abstract',
  'decision',
  'intent',
  'goal',
  'objective',
  'scope',
  'context',
];

/** A section title as compared with those names. */
function sectionName(title: string): string {
  return title
    .toLowerCase()
    .replace(/^\s*\d+(?:\.\d+)*[.)]?\s+/, '')
    .replace(/[\s:.]+$/, '')
    .trim();
}

export type SectionForSummary = { title: string; summary: Summary; topLevel: boolean };

export type DocumentSummaryInput = {
  frontMatterSummary: string | null;
  blocks: Block[];
  /** Its sections and cards in document order; `topLevel` for those directly under the document. */
  sections: SectionForSummary[];
  facts: string[];
  childTitles: string[];
};

const inProse = (s: Summary) => s.summarySource === 'text' || s.summarySource === 'paragraph';

/** A document, before any status prefix. */
export function documentSummary(input: DocumentSummaryInput): Summary {
  if (input.frontMatterSummary) {
    const fm = make(input.frontMatterSummary, 'front-matter');
    if (fm) return fm;
  }
  const prose = proseSummary(input.blocks);
  if (prose) return prose;
  if (input.blocks.length === 0) {
    for (const name of SUMMARY_SECTIONS) {
      const named = input.sections.find(
        (s) => s.topLevel && inProse(s.summary) && sectionName(s.title) === name,
      );
      if (named) return { summary: named.summary.summary, summarySource: 'section' };
    }
  }
  const block = blockSummary(input.blocks);
  if (block) return block;
  const first = input.sections.find((s) => inProse(s.summary));
  if (first) return { summary: first.summary.summary, summarySource: 'section' };
  if (input.facts.length > 0) {
    const facts = make(input.facts.join(' · '), 'facts');
    if (facts) return facts;
  }
  return childrenSummary(input.childTitles) ?? NONE;
}

/** The statuses that say a document no longer holds. */
const INACTIVE_STATUSES = [
  'superseded',
  'deprecated',
  'rejected',
  'retired',
  'withdrawn',
  'obsolete',
  'replaced',
];

/**
 * A document that no longer holds starts its summary with its status, and with its replacement
 * when it names one: `Superseded by ADR-003.`, `Replaced by X.`, `Deprecated, superseded by X.`,
 * `Rejected.` The summary source stays the one the rest came from.
 */
export function withStatus(summary: Summary, status: string | null, supersededBy: string | null): Summary {
  const word = status?.split(/\s+/, 1)[0] ?? '';
  if (!INACTIVE_STATUSES.includes(word)) return summary;
  const label = word.charAt(0).toUpperCase() + word.slice(1);
  let prefix = `${label}.`;
  if (supersededBy) {
    prefix =
      word === 'superseded' || word === 'replaced'
        ? `${label} by ${supersededBy}.`
        : `${label}, superseded by ${supersededBy}.`;
  }
  return {
    summary: cut(summary.summary ? `${prefix} ${summary.summary}` : prefix),
    summarySource: summary.summarySource,
  };
}

/** A folder's entry in a layout summary: a one-document folder is named with its document's title. */
export type LayoutEntry = { name: string; onlyDocumentTitle: string | null };

/**
 * What the layout says a folder holds, then its entries: `Holds: rtn01 (Unopened articles) ·
 * rtn02 · Pricing rules`. The builder reads no layout description of its own (the seed names
 * none in the repository), so the summary is the entries: sub-folders by name (a one-document
 * folder with its document's title), documents by title.
 */
export function layoutSummary(entries: LayoutEntry[]): Summary {
  if (entries.length === 0) return NONE;
  const names = entries.map((e) => (e.onlyDocumentTitle ? `${e.name} (${e.onlyDocumentTitle})` : e.name));
  return make(`Holds: ${names.join(' · ')}`, 'layout') ?? NONE;
}
