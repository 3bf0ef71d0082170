/**
 * One pass of markdown-it over a document body (docs/TREES.md): its headings with GitHub slugs,
 * its top-level blocks (what summaries are made of) and the references it makes (Markdown links
 * and words that could be reference ids), each with its line as Git counts it.
 *
 * Why markdown-it: it is CommonMark plus GitHub's tables, gives every block its source lines, and
 * stays linear on hostile inputs (it caps nesting at 100 levels; micromark/mdast took minutes on
 * 10,000 nested list markers). What counts, as on GitHub:
 * - a heading is an ATX or setext heading at the top level of the document; one inside a code
 *   fence, an indented code block or an HTML block (such as `<!-- … -->`) is text. A heading inside
 *   a list or a block quote gets its GitHub anchor (it counts for the `-1`, `-2` suffixes) but no
 *   node: its anchor names the node that holds it;
 * - a link is a Markdown inline link, a reference link (`[x][ref]`, `[ref]`) whose definition
 *   exists, an autolink (`<https://…>`, and GitHub's bare `www.`, `http(s)://` and e-mail
 *   autolinks, not bare domain names), or the `href` of an HTML anchor (`<a href="x.md#part">`,
 *   quoted either way or not, character references decoded) in inline HTML or an HTML block,
 *   outside HTML comments (and `<script>`, `<style>`, `<textarea>` blocks), at the line its `<a`
 *   starts on; images are not links;
 * - a mention is a reference id in the text of a paragraph, heading, list, table or block quote
 *   (code spans included; code blocks, HTML, link destinations and autolinks excluded);
 * - a heading's slug is GitHub's (github-slugger) over the heading's text as rendered, its first
 *   1,000 characters (a longer heading is hostile input, not a title).
 */
import GithubSlugger from 'github-slugger';
import MarkdownIt, { type StateInline, type Token } from 'markdown-it';
import { findRefIds, leadingRefId } from './refids.ts';

export type Block =
  | { kind: 'paragraph'; line: number; text: string }
  | { kind: 'list'; line: number; items: string[]; itemCount: number; fields: boolean }
  | { kind: 'table'; line: number; columns: string[]; rows: string[][]; rowCount: number }
  | { kind: 'code'; line: number; lang: string; firstLine: string; lines: number }
  | { kind: 'diagram'; line: number; diagram: string };

/** A top-level heading that becomes a node (the first `maxHeadings` of them). */
export type Heading = {
  line: number;
  level: number;
  text: string;
  slug: string;
  /** The reference id the heading starts with: the heading is a card. */
  refId: string | null;
};

/** The GitHub anchor of a heading that is no node: it names the node whose text holds it. */
type Alias = { line: number; slug: string };

type RawRef = { kind: 'link'; line: number; href: string } | { kind: 'mention'; line: number; id: string };

export type Scan = { headings: Heading[]; aliases: Alias[]; blocks: Block[]; refs: RawRef[] };

/** Texts kept for a block: a summary is at most 240 characters, so more is never read. */
const MAX_BLOCK_TEXT = 1_000;
const MAX_ITEMS = 50;
const MAX_ROWS = 50;

// GitHub's autolinks: `www.`, `http(s)://` and e-mail addresses, not bare domain names.
const md = MarkdownIt({ html: true, linkify: true, typographer: false });
md.linkify.set({ fuzzyLink: false });
// Keep destinations as written (escapes undone): the tree resolves and decodes them itself, and
// drops what a browser could not follow.
md.normalizeLink = (url: string) => url;
md.validateLink = () => true;

/** Where a link starts in its inline source, and how many newlines a code span or image spans. */
const linkStart = new WeakMap<Token, number>();
const spannedNewlines = new WeakMap<Token, number>();

function countNewlines(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

type InlineRule = (state: StateInline, silent: boolean) => boolean;

/** Wraps an inline rule so the token it makes remembers where it was in the source. */
function track(
  name: string,
  type: string,
  record: (token: Token, state: StateInline, start: number) => void,
) {
  const rule = md.inline.ruler.__rules__.find((r) => r.name === name)?.fn as InlineRule | undefined;
  if (!rule) throw new Error(`markdown-it has no inline rule ${name}`);
  md.inline.ruler.at(name, (state: StateInline, silent: boolean) => {
    const start = state.pos;
    const first = state.tokens.length;
    const ok = rule(state, silent);
    if (ok && !silent) {
      for (let i = first; i < state.tokens.length; i++) {
        const token = state.tokens[i]!;
        if (token.type === type) {
          record(token, state, start);
          break;
        }
      }
    }
    return ok;
  });
}

track('link', 'link_open', (token, _state, start) => linkStart.set(token, start));
track('backticks', 'code_inline', (token, state, start) =>
  spannedNewlines.set(token, countNewlines(state.src, start, state.pos)),
);
track('image', 'image', (token, state, start) =>
  spannedNewlines.set(token, countNewlines(state.src, start, state.pos)),
);

/** One attribute of an HTML start tag, read from where the last one ended (as a browser tokenizes it). */
const ATTRIBUTE = /[\s/]*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/y;

/** An HTML anchor's start tag begins at `at`: `<a` then a space, `/` or `>`. */
function isAnchorTag(html: string, at: number): boolean {
  const c = html.charCodeAt(at + 1) | 0x20;
  return c === 0x61 && /[\s/>]/.test(html.charAt(at + 2));
}

/**
 * The `href` of the anchor start tag at `at` (its first one, as a browser takes it), character
 * references decoded (a backslash is no escape in HTML), and where the tag's attributes end.
 */
function anchorHref(html: string, at: number): { href: string | null; end: number } {
  let end = at + 2;
  let href: string | null = null;
  ATTRIBUTE.lastIndex = end;
  for (let m = ATTRIBUTE.exec(html); m; m = ATTRIBUTE.exec(html)) {
    end = ATTRIBUTE.lastIndex;
    if (href === null && m[1]!.toLowerCase() === 'href') {
      const value = m[2] ?? m[3] ?? m[4] ?? '';
      href = md.utils.unescapeAll(value.replace(/\\/g, '&#92;'));
    }
  }
  return { href, end };
}

/** HTML blocks whose text a browser never shows as links. */
const RAW_TEXT_BLOCK = /^<(?:script|style|textarea)(?=[\s>]|$)/i;

/** The anchors of an HTML block, outside its comments, at the line each `<a` starts on. */
function htmlBlockLinks(html: string, firstLine: number, refs: RawRef[]): void {
  if (RAW_TEXT_BLOCK.test(html)) return;
  let line = firstLine;
  let counted = 0;
  let at = html.indexOf('<');
  while (at >= 0) {
    if (html.startsWith('<!--', at)) {
      // `<!-->` and `<!--->` are whole comments, as in CommonMark and HTML.
      const close = /^-?>/.exec(html.slice(at + 4, at + 6));
      const end = close ? at + 4 + close[0].length : html.indexOf('-->', at + 4) + 3;
      if (end < 3) return;
      at = html.indexOf('<', end);
      continue;
    }
    let next = at + 1;
    if (isAnchorTag(html, at)) {
      const { href, end } = anchorHref(html, at);
      line += countNewlines(html, counted, at);
      counted = at;
      if (href !== null) refs.push({ kind: 'link', line, href });
      next = end;
    }
    at = html.indexOf('<', next);
  }
}

function clip(text: string): string {
  return text.length > MAX_BLOCK_TEXT ? text.slice(0, MAX_BLOCK_TEXT) : text;
}

/** Adds to a text kept to its first MAX_BLOCK_TEXT characters. */
function append(text: string, more: string): string {
  return text.length >= MAX_BLOCK_TEXT ? text : text + more.slice(0, MAX_BLOCK_TEXT - text.length);
}

type InlineText = {
  /** What GitHub renders as the element's text: code spans kept, images and HTML tags dropped. */
  text: string;
  /** The same with its spaces as written (a heading's slug is made from it, as GitHub does). */
  raw: string;
  /** Whether any of it is words outside links: a paragraph of links or badges only is no prose. */
  prose: boolean;
};

const WORD = /[\p{L}\p{N}]/u;

/** Reads one inline token: its text, and the references in it at their lines. */
function readInline(inline: Token, firstLine: number, refs: RawRef[]): InlineText {
  const source = inline.content;
  let line = firstLine;
  // Where in the source the line count was last taken: links come in source order.
  let cursor = 0;
  let cursorLine = firstLine;
  const lineAt = (pos: number) => {
    if (pos < cursor) {
      cursor = 0;
      cursorLine = firstLine;
    }
    cursorLine += countNewlines(source, cursor, pos);
    cursor = pos;
    return cursorLine;
  };
  let text = '';
  let prose = false;
  let linkDepth = 0;
  let inAutolink = false;
  const mentions = (content: string) => {
    for (const { id } of findRefIds(content)) refs.push({ kind: 'mention', line, id });
  };
  for (const child of inline.children ?? []) {
    switch (child.type) {
      case 'text':
        text = append(text, child.content);
        if (!prose && linkDepth === 0 && WORD.test(child.content)) prose = true;
        if (!inAutolink) mentions(child.content);
        break;
      case 'code_inline':
        text = append(text, child.content);
        if (!prose && linkDepth === 0 && WORD.test(child.content)) prose = true;
        mentions(child.content);
        line += spannedNewlines.get(child) ?? 0;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        line++;
        break;
      case 'html_inline':
        // One tag (or comment) a token: a comment's `<a>` is no link.
        if (isAnchorTag(child.content, 0)) {
          const { href } = anchorHref(child.content, 0);
          if (href !== null) refs.push({ kind: 'link', line, href });
        }
        line += countNewlines(child.content);
        break;
      case 'image':
        line += spannedNewlines.get(child) ?? 0;
        break;
      case 'link_open': {
        const start = linkStart.get(child);
        if (start !== undefined) line = lineAt(start);
        linkDepth++;
        inAutolink = child.markup === 'autolink' || child.markup === 'linkify';
        const href = child.attrGet('href');
        if (typeof href === 'string') refs.push({ kind: 'link', line, href });
        break;
      }
      case 'link_close':
        linkDepth = Math.max(0, linkDepth - 1);
        inAutolink = false;
        break;
    }
  }
  return { text: text.replace(/\s+/g, ' ').trim(), raw: text.trim(), prose };
}

/** A Mermaid block's kind: the first word of its first line that is not blank, a comment or config. */
function mermaidKind(content: string): string {
  let inConfig = false;
  for (const raw of content.split('\n', 200)) {
    const line = raw.trim();
    if (line === '---') {
      inConfig = !inConfig;
      continue;
    }
    if (inConfig || line === '' || line.startsWith('%%')) continue;
    return (line.split(/[\s;:]/, 1)[0] ?? '').slice(0, 40) || 'diagram';
  }
  return 'diagram';
}

function codeBlock(token: Token, line: number): Block {
  const lang = (token.info.trim().split(/\s+/, 1)[0] ?? '').toLowerCase();
  if (lang === 'mermaid') return { kind: 'diagram', line, diagram: mermaidKind(token.content) };
  const firstLine = (token.content.split('\n', 50).find((l) => l.trim() !== '') ?? '').trim().slice(0, 200);
  return { kind: 'code', line, lang, firstLine, lines: countNewlines(token.content) };
}

/** `- **key:** value` or `- **key**: value` (also with `__`). */
const FIELD = /^(?:\*\*|__)[^*_\n]{1,80}?(?::(?:\*\*|__)|(?:\*\*|__)[ \t]*:)/;

/** GitHub alert markers at the start of a block quote (`> [!NOTE]`). */
const ALERT = /^\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/i;

/**
 * Scans a body (front matter blanked, lone CRs neutralised, so markdown-it's lines are Git's).
 * At most `maxHeadings` top-level headings become headings; the later ones are text (a paragraph
 * of the node before them) whose anchors name that node.
 */
export function scanMarkdown(body: string, maxHeadings: number): Scan {
  const tokens = md.parse(body, {});
  const slugger = new GithubSlugger();
  const scan: Scan = { headings: [], aliases: [], blocks: [], refs: [] };
  let lastLine = 1;
  const lineOf = (token: Token) => {
    if (token.map) lastLine = token.map[0] + 1;
    return lastLine;
  };
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    const line = lineOf(token);
    if (token.type === 'heading_open' || token.type === 'paragraph_open') {
      const inline = tokens[i + 1];
      const read = inline?.type === 'inline' ? readInline(inline, lineOf(inline), scan.refs) : null;
      const text = read?.text ?? '';
      if (token.type === 'heading_open') {
        const slug = slugger.slug(read?.raw ?? '');
        if (scan.headings.length < maxHeadings) {
          const level = Number(token.tag.slice(1)) || 1;
          scan.headings.push({ line, level, text, slug, refId: leadingRefId(text) });
        } else {
          scan.aliases.push({ line, slug });
          if (text) scan.blocks.push({ kind: 'paragraph', line, text: clip(text) });
        }
      } else if (read?.prose) scan.blocks.push({ kind: 'paragraph', line, text: clip(text) });
      i += 3;
      continue;
    }
    if (token.type === 'fence' || token.type === 'code_block') {
      scan.blocks.push(codeBlock(token, line));
      i++;
      continue;
    }
    if (token.type === 'html_block') {
      htmlBlockLinks(token.content, line, scan.refs);
      i++;
      continue;
    }
    if (token.nesting !== 1) {
      i++;
      continue;
    }
    // A container (list, table, block quote): read everything up to its closing token.
    let end = i + 1;
    while (end < tokens.length && !(tokens[end]!.level === 0 && tokens[end]!.nesting === -1)) end++;
    const block = container(tokens, i, end, line, slugger, scan, lineOf);
    if (block) scan.blocks.push(block);
    i = end + 1;
  }
  return scan;
}

function container(
  tokens: Token[],
  open: number,
  close: number,
  line: number,
  slugger: GithubSlugger,
  scan: Scan,
  lineOf: (token: Token) => number,
): Block | null {
  const kind = tokens[open]!.type;
  const items: string[] = [];
  let itemCount = 0;
  let fields = true;
  let itemDepth = 0;
  let itemHasText = false;
  const columns: string[] = [];
  const rows: string[][] = [];
  let rowCount = 0;
  let inBody = false;
  let cell: 'th' | 'td' | null = null;
  const quote: string[] = [];
  for (let i = open + 1; i < close; i++) {
    const token = tokens[i]!;
    const at = lineOf(token);
    switch (token.type) {
      case 'list_item_open':
        itemDepth++;
        if (itemDepth === 1) {
          itemCount++;
          itemHasText = false;
        }
        break;
      case 'list_item_close':
        if (itemDepth === 1 && !itemHasText) fields = false;
        itemDepth--;
        break;
      case 'tbody_open':
        inBody = true;
        break;
      case 'tr_open':
        if (inBody) {
          rowCount++;
          if (rows.length < MAX_ROWS) rows.push([]);
        }
        break;
      case 'th_open':
      case 'td_open':
        cell = token.type === 'th_open' ? 'th' : 'td';
        break;
      case 'heading_open': {
        const inline = tokens[i + 1];
        const read = inline?.type === 'inline' ? readInline(inline, lineOf(inline), scan.refs) : null;
        const text = read?.text ?? '';
        scan.aliases.push({ line: at, slug: slugger.slug(read?.raw ?? '') });
        if (kind === 'blockquote_open' && text) quote.push(text);
        i++;
        break;
      }
      case 'inline': {
        const read = readInline(token, at, scan.refs);
        const text = read.text;
        if (kind === 'table_open') {
          if (cell === 'th') columns.push(text);
          else if (cell === 'td' && rowCount <= MAX_ROWS) rows[rows.length - 1]?.push(text);
        } else if (kind === 'blockquote_open') {
          if (read.prose) quote.push(text);
        } else if (itemDepth === 1 && !itemHasText) {
          itemHasText = true;
          if (!FIELD.test(token.content.slice(0, 200))) fields = false;
          if (items.length < MAX_ITEMS && text) items.push(clip(text));
        }
        break;
      }
      case 'html_block':
        htmlBlockLinks(token.content, at, scan.refs);
        break;
      case 'fence':
      case 'code_block':
        if (itemDepth === 1 && !itemHasText) {
          itemHasText = true;
          fields = false;
        }
        break;
    }
  }
  if (kind === 'bullet_list_open' || kind === 'ordered_list_open') {
    if (itemCount === 0) return null;
    return { kind: 'list', line, items, itemCount, fields: fields && items.length > 0 };
  }
  if (kind === 'table_open') return { kind: 'table', line, columns, rows, rowCount };
  if (kind === 'blockquote_open') {
    const text = quote.join(' ').replace(ALERT, '').trim();
    return text ? { kind: 'paragraph', line, text: clip(text) } : null;
  }
  return null;
}
