/**
 * Turns mammoth's HTML (and, through createBlockBuilder, a web page's main content: html.ts) into
 * a canonical plain text: one block per heading, paragraph, list item or table row (cells joined
 * by " | "), blocks separated by a blank line. Deterministic, so a locator into this text can be
 * read back by converting the document again.
 */
import type { Section } from './sections.ts';

type Block = { text: string; level: number; start: number; end: number };

export type CanonicalText = { text: string; blocks: Block[]; tables: number };

type State = {
  blocks: { text: string; level: number }[];
  current: string[];
  level: number;
  tableDepth: number;
  row: string[] | null;
  cell: string[] | null;
  tables: number;
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? m;
    const cp = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  });
}

function normalize(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function flush(st: State): void {
  const text = normalize(st.current.join(''));
  if (text) st.blocks.push({ text, level: st.level });
  st.current = [];
  st.level = 0;
}

function openTable(st: State, tag: string): void {
  if (tag === 'tr' && st.tableDepth === 1) st.row = [];
  else if ((tag === 'td' || tag === 'th') && st.tableDepth === 1) st.cell = [];
  else if (st.cell) st.cell.push(' ');
}

function closeTable(st: State, tag: string): void {
  if ((tag === 'td' || tag === 'th') && st.tableDepth === 1 && st.cell) {
    st.row?.push(normalize(st.cell.join('')).replace(/\n/g, ' '));
    st.cell = null;
  } else if (tag === 'tr' && st.tableDepth === 1 && st.row) {
    if (st.row.some((c) => c !== '')) st.blocks.push({ text: st.row.join(' | ').trim(), level: 0 });
    st.row = null;
  } else if (st.cell) {
    st.cell.push(' ');
  }
}

function onTag(st: State, closing: boolean, tag: string): void {
  if (tag === 'table') {
    if (!closing && st.tableDepth === 0) {
      flush(st);
      st.tables++;
    }
    st.tableDepth += closing ? -1 : 1;
    return;
  }
  if (st.tableDepth > 0) {
    if (tag === 'br' && st.cell) st.cell.push(' ');
    else if (closing) closeTable(st, tag);
    else openTable(st, tag);
    return;
  }
  if (tag === 'br') st.current.push('\n');
  else if (/^(h[1-6]|p|li|ul|ol|div|blockquote|pre)$/.test(tag)) {
    flush(st);
    if (!closing && tag[0] === 'h') st.level = Number(tag[1]);
  }
}

function onText(st: State, text: string): void {
  const target = st.tableDepth > 0 ? st.cell : st.current;
  target?.push(text);
}

function finish(st: State): CanonicalText {
  flush(st);
  const blocks: Block[] = [];
  let pos = 0;
  for (const b of st.blocks) {
    if (blocks.length > 0) pos += 2;
    blocks.push({ ...b, start: pos, end: pos + b.text.length });
    pos += b.text.length;
  }
  return { text: st.blocks.map((b) => b.text).join('\n\n'), blocks, tables: st.tables };
}

/** Feeds tags (lower-case names) and decoded text in document order; html.ts drives it from a parser. */
export type BlockBuilder = {
  tag: (closing: boolean, name: string) => void;
  text: (decoded: string) => void;
  finish: () => CanonicalText;
};

export function createBlockBuilder(): BlockBuilder {
  const st: State = { blocks: [], current: [], level: 0, tableDepth: 0, row: null, cell: null, tables: 0 };
  return {
    tag: (closing, name) => onTag(st, closing, name),
    text: (t) => onText(st, t),
    finish: () => finish(st),
  };
}

export function htmlToCanonical(html: string): CanonicalText {
  const builder = createBlockBuilder();
  const re = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>|([^<]+)/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[3] !== undefined) builder.text(decodeEntities(m[3]));
    else builder.tag(m[1] === '/', m[2]!.toLowerCase());
  }
  return builder.finish();
}

function headingText(text: string): string {
  const t = text.replace(/\s+/g, ' ');
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

/** Heading-delimited sections of the canonical text; empty when the document has no headings. */
export function blockSections(canon: CanonicalText): Section[] {
  const headings = canon.blocks.filter((b) => b.level > 0);
  if (headings.length === 0) return [];
  const sections: Section[] = [];
  if (headings[0]!.start > 0) sections.push({ path: null, start: 0, end: headings[0]!.start });
  const stack: { level: number; text: string }[] = [];
  headings.forEach((h, i) => {
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push({ level: h.level, text: headingText(h.text) });
    sections.push({
      path: stack.map((s) => s.text),
      start: h.start,
      end: headings[i + 1]?.start ?? canon.text.length,
    });
  });
  return sections;
}
