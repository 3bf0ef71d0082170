/**
 * Markdown structure: YAML front matter, then ATX and setext headings outside fenced code blocks.
 * Everything is a line scan with bounded per-line work, so hostile inputs (10 MB single lines)
 * stay linear. Offsets are character offsets into the decoded text.
 */
import { parse as parseYaml } from 'yaml';
import { latestDate } from './document-date.ts';
import type { Section } from './sections.ts';

export type FrontMatter = {
  title: string | null;
  /** Front matter `name`: the title's last fallback before the file name ([R5] in docs/RETRIEVAL.md). */
  name: string | null;
  occurredAt: string | null;
  /** Which front matter key the date came from ("front matter `updated`"), when there is one. */
  datedBy: string | null;
  bodyStart: number;
  health: string[];
};

/**
 * The front matter keys that date a document ([R2] in docs/RETRIEVAL.md): the written date and
 * the usual names for its last revision (Jekyll, Hugo, Docusaurus, Obsidian). The latest one
 * wins: freshness asks how current the text is, and a policy dated 2021 but updated last month
 * was reviewed last month.
 */
const DATE_KEYS = ['date', 'updated', 'last_modified', 'lastmod', 'modified'] as const;

type Line = { start: number; end: number; text: string };

/** Heading texts this long are prose, not headings worth a breadcrumb. */
const MAX_HEADING_CHARS = 200;
/** Longer lines are never headings: keeps the closing-sequence regex off hostile megabyte lines. */
const MAX_HEADING_LINE = 10_000;

function* lines(text: string, from: number): Generator<Line> {
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl + 1;
    let contentEnd = nl < 0 ? text.length : nl;
    if (contentEnd > pos && text.charCodeAt(contentEnd - 1) === 13) contentEnd--;
    yield { start: pos, end, text: text.slice(pos, contentEnd) };
    pos = end;
  }
}

function readYaml(source: string, fm: FrontMatter): void {
  try {
    const data: unknown = parseYaml(source);
    if (!data || typeof data !== 'object' || Array.isArray(data)) return;
    const record = data as Record<string, unknown>;
    if (typeof record.title === 'string' && record.title.trim()) fm.title = record.title.trim();
    if (typeof record.name === 'string' && record.name.trim()) fm.name = record.name.trim();
    const dated = latestDate(
      DATE_KEYS.map((key) => ({ value: record[key], from: `front matter \`${key}\`` })),
    );
    fm.occurredAt = dated?.at ?? null;
    fm.datedBy = dated?.from ?? null;
  } catch {
    fm.health.push('invalid YAML front matter: ignored');
  }
}

/** Front matter: `---` on the first line up to a closing `---` or `...` line. */
export function parseFrontMatter(text: string): FrontMatter {
  const fm: FrontMatter = {
    title: null,
    name: null,
    occurredAt: null,
    datedBy: null,
    bodyStart: 0,
    health: [],
  };
  const iter = lines(text, 0);
  const first = iter.next();
  if (first.done || first.value.text.trimEnd() !== '---') return fm;
  for (const line of iter) {
    const t = line.text.trimEnd();
    if (t === '---' || t === '...') {
      readYaml(text.slice(first.value.end, line.start), fm);
      fm.bodyStart = line.end;
      return fm;
    }
  }
  return fm;
}

function leadingSpaces(s: string): number {
  let i = 0;
  while (i < s.length && s[i] === ' ') i++;
  return i;
}

type Fence = { char: string; length: number };

function fenceOpen(s: string): Fence | null {
  const indent = leadingSpaces(s);
  if (indent > 3) return null;
  const char = s[indent];
  if (char !== '`' && char !== '~') return null;
  let n = indent;
  while (s[n] === char) n++;
  if (n - indent < 3) return null;
  // A backtick fence's info string may not contain backticks (that is inline code instead).
  if (char === '`' && s.indexOf('`', n) >= 0) return null;
  return { char, length: n - indent };
}

function fenceCloses(s: string, fence: Fence): boolean {
  const indent = leadingSpaces(s);
  if (indent > 3) return false;
  let n = indent;
  while (s[n] === fence.char) n++;
  return n - indent >= fence.length && s.slice(n).trim() === '';
}

/** How much of a heading's source its words are read from: bounds the work on hostile lines. */
const HEADING_SOURCE_CHARS = 2000;

const WORD = /[\p{L}\p{N}]/u;

/**
 * A heading as a reader sees it ([R5] in docs/RETRIEVAL.md): links and images by their text (a
 * link of only a symbol, a "⬆" back to the contents or a "¶" permalink, dropped), code spans,
 * strong and emphasis by their words, HTML comments and tags dropped, escapes undone. No pattern
 * can backtrack without bound (no nested quantifiers over the same characters, no
 * backreferences), and at most HEADING_SOURCE_CHARS of the line are read.
 */
function headingWords(source: string): string {
  // Code spans are literal ("`List<T>`" keeps its "<T>"): set aside first, put back last.
  const code: string[] = [];
  const back = (t: string) =>
    code.length === 0 ? t : t.replace(/\uE000(\d+)\uE001/g, (_, i: string) => code[Number(i)] ?? '');
  return back(
    source
      .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
      .replace(/`([^`]+)`/g, (_, c: string) => `\uE000${code.push(c) - 1}\uE001`)
      .replace(/!\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
      .replace(/\[([^\]]*)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])/g, (_, text: string) =>
        WORD.test(back(text)) ? text : ' ',
      )
      .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
      .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
      .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a?: string, b?: string) => a ?? b ?? '')
      .replace(/(^|[^\p{L}\p{N}*_\\])[*_]([^*_\s](?:[^*_]*[^*_\s])?)[*_](?![\p{L}\p{N}*_])/gu, '$1$2')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1'),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

function cleanHeading(raw: string): string {
  const t = headingWords(raw.trim().slice(0, HEADING_SOURCE_CHARS)) || '(untitled)';
  return t.length > MAX_HEADING_CHARS ? `${t.slice(0, MAX_HEADING_CHARS)}…` : t;
}

/** `#`..`######` followed by a space or the end of the line; an optional closing run of `#`s is dropped. */
function atxHeading(s: string): { level: number; text: string } | null {
  const indent = leadingSpaces(s);
  if (indent > 3 || s[indent] !== '#' || s.length > MAX_HEADING_LINE) return null;
  let n = indent;
  while (s[n] === '#') n++;
  const level = n - indent;
  if (level > 6 || (n < s.length && s[n] !== ' ' && s[n] !== '\t')) return null;
  let body = s.slice(n).trim();
  const closing = body.match(/(?:^|[ \t])#+$/);
  if (closing) body = body.slice(0, closing.index).trim();
  return { level, text: cleanHeading(body) };
}

function setextLevel(s: string): number {
  const indent = leadingSpaces(s);
  if (indent > 3) return 0;
  const t = s.trim();
  if (/^=+$/.test(t)) return 1;
  if (/^-+$/.test(t)) return 2;
  return 0;
}

/** Could this line be the text of a setext heading (a plain paragraph line)? */
function paragraphLine(s: string): boolean {
  if (s.trim() === '' || leadingSpaces(s) > 3) return false;
  return !/^\s*([-*+]\s|\d{1,9}[.)]\s|>)/.test(s);
}

type Heading = { start: number; level: number; text: string };

export function findHeadings(text: string, from: number): Heading[] {
  const out: Heading[] = [];
  let fence: Fence | null = null;
  let prev: (Line & { plain: boolean }) | null = null;
  for (const line of lines(text, from)) {
    let plain = false;
    const opened: Fence | null = fence ? null : fenceOpen(line.text);
    if (fence) {
      if (fenceCloses(line.text, fence)) fence = null;
    } else if (opened) {
      fence = opened;
    } else {
      const atx = atxHeading(line.text);
      const setext = atx ? 0 : setextLevel(line.text);
      if (atx) out.push({ start: line.start, ...atx });
      else if (setext && prev?.plain)
        out.push({ start: prev.start, level: setext, text: cleanHeading(prev.text) });
      else plain = paragraphLine(line.text);
    }
    prev = { ...line, plain };
  }
  return out;
}

/**
 * A document's title ([R5] in docs/RETRIEVAL.md): front matter `title`, else its one top-level
 * heading (a document with two `#` headings has no single title), else front matter `name`.
 */
export function documentTitle(text: string, fm: FrontMatter): string | null {
  if (fm.title) return fm.title;
  const top = findHeadings(text, fm.bodyStart).filter((h) => h.level === 1);
  if (top.length === 1 && top[0] && top[0].text !== '(untitled)') return top[0].text;
  return fm.name;
}

/** Sections from headings: preamble, then one section per heading with its breadcrumb. */
export function markdownSections(text: string, from: number): Section[] {
  const headings = findHeadings(text, from);
  const sections: Section[] = [];
  const firstStart = headings[0]?.start ?? text.length;
  if (firstStart > from) sections.push({ path: null, start: from, end: firstStart });
  const stack: { level: number; text: string }[] = [];
  headings.forEach((h, i) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push(h);
    const end = headings[i + 1]?.start ?? text.length;
    sections.push({ path: stack.map((s) => s.text), start: h.start, end });
  });
  return sections;
}
