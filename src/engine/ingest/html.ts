/**
 * HTML pages (saved pages, exported wikis) through htmlparser2: the main content only, page chrome
 * and active content dropped ([F6] in docs/FORMATS.md), flattened to the canonical text of
 * html-blocks.ts so headings make the section path and locators are character ranges ([F7]).
 * Nothing from the page is ever rendered as HTML. Runs in the worker ([F4]).
 */
import { type Handler, Parser } from 'htmlparser2';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { type BlockBuilder, blockSections, type CanonicalText, createBlockBuilder } from './html-blocks.ts';
import { decodePage } from './html-charset.ts';
import { flatPieces, structuredPieces } from './sections.ts';
import type { Extraction } from './types.ts';
import { bytesKey, cached } from './worker-cache.ts';

/** Elements dropped with everything inside them: chrome, active content, forms, the head. */
const DROPPED = new Set(
  (
    'head script style noscript template svg math iframe object embed canvas form button select ' +
    'textarea nav header footer aside dialog'
  ).split(' '),
);
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary']);
/** Passed to the block builder as they are; other block-level elements are passed as a div. */
const KNOWN = new Set('h1 h2 h3 h4 h5 h6 p li ul ol div blockquote pre table tr td th br'.split(' '));
const AS_DIV = new Set(
  (
    'section article main body dl dt dd figure figcaption address details summary hr caption ' +
    'center fieldset legend'
  ).split(' '),
);

type PageText = CanonicalText & { title: string | null; from: 'main' | 'article' | 'body' };

type Open = { dropped: boolean; main: boolean; article: boolean; title: boolean };

function isDropped(name: string, attrs: Record<string, string>): boolean {
  return (
    DROPPED.has(name) ||
    'hidden' in attrs ||
    attrs['aria-hidden'] === 'true' ||
    DROPPED_ROLES.has((attrs.role ?? '').toLowerCase())
  );
}

function builderTag(name: string): string | null {
  if (KNOWN.has(name)) return name;
  return AS_DIV.has(name) ? 'div' : null;
}

type Builders = { body: BlockBuilder; main: BlockBuilder; article: BlockBuilder };

const FLAGS = ['dropped', 'main', 'article', 'title'] as const;

function openOf(name: string, attrs: Record<string, string>): Open {
  return {
    dropped: isDropped(name, attrs),
    main: name === 'main' || (attrs.role ?? '').toLowerCase() === 'main',
    article: name === 'article',
    title: name === 'title',
  };
}

/** Parser events into the builders: all text outside dropped elements to `body`, and to `main`/`article` inside them. */
function pageHandler(b: Builders, titleParts: string[]): Partial<Handler> {
  const stack: Open[] = [];
  const counts = { dropped: 0, main: 0, article: 0, title: 0 };
  const count = (open: Open, by: number) => {
    for (const k of FLAGS) if (open[k]) counts[k] += by;
  };
  const targets = () => {
    if (counts.dropped > 0) return [];
    return [b.body, ...(counts.main > 0 ? [b.main] : []), ...(counts.article > 0 ? [b.article] : [])];
  };
  const feedTag = (closing: boolean, name: string) => {
    const tag = builderTag(name);
    if (tag) for (const builder of targets()) builder.tag(closing, tag);
  };
  return {
    onopentag(name, attrs) {
      const open = openOf(name, attrs);
      feedTag(false, name);
      stack.push(open);
      count(open, 1);
    },
    onclosetag(name) {
      const open = stack.pop();
      if (open) count(open, -1);
      feedTag(true, name);
    },
    ontext(text) {
      if (counts.title > 0) titleParts.push(text);
      for (const builder of targets()) builder.text(text);
    },
  };
}

function parsePage(html: string): PageText {
  const b: Builders = {
    body: createBlockBuilder(),
    main: createBlockBuilder(),
    article: createBlockBuilder(),
  };
  const titleParts: string[] = [];
  const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
  new Parser(pageHandler(b, titleParts), options).end(html);
  const title = titleParts.join('').replace(/\s+/g, ' ').trim().slice(0, 300) || null;
  const fromMain = b.main.finish();
  if (fromMain.text) return { ...fromMain, title, from: 'main' };
  const fromArticle = b.article.finish();
  if (fromArticle.text) return { ...fromArticle, title, from: 'article' };
  return { ...b.body.finish(), title, from: 'body' };
}

function page(bytes: Uint8Array): Promise<PageText & { health: string[] }> {
  return cached(bytesKey('html', bytes), async () => {
    // In the character set the page declares, where it is not UTF-8 ([F25] in docs/FORMATS.md).
    const decoded = decodePage(bytes);
    return { ...parsePage(decoded.text), health: decoded.health };
  });
}

function healthOf(p: PageText & { health: string[] }, chunks: number): string[] {
  const health = [...p.health];
  if (p.from !== 'body') health.push(`only the page's <${p.from}> content was read`);
  if (p.tables > 0) health.push(`tables flattened to text (${p.tables})`);
  if (chunks === 0) health.push('no text in the page body');
  return health;
}

export async function extractHtml(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const p = await page(bytes);
  const sections = blockSections(p);
  const prefix = p.title ?? fileLabel;
  const pieces =
    sections.length > 0 ? structuredPieces(p.text, sections, prefix) : flatPieces(p.text, '', prefix);
  const chunks = charChunks(
    p.text,
    pieces,
    (charStart, charEnd, lines): Locator => ({ type: 'html', charStart, charEnd, ...lines }),
  );
  return { title: p.title, occurredAt: null, datedBy: null, health: healthOf(p, chunks.length), chunks };
}

export async function readHtml(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'html')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a web page`);
  return sliceChars((await page(bytes)).text, locator.charStart, locator.charEnd, 'the page text');
}

const escapeHtml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A page's main content as plain HTML of headings and paragraphs, its text escaped: what a Word
 * document's embedded HTML part (docx-altchunk.ts, [F21]) adds to the document, so nothing of the
 * page but its text reaches the document's own HTML.
 */
export function mainContentHtml(bytes: Uint8Array): string {
  const p = parsePage(decodePage(bytes).text);
  return p.blocks
    .map((b) => {
      const tag = b.level > 0 ? `h${b.level}` : 'p';
      return `<${tag}>${escapeHtml(b.text).replace(/\n/g, '<br />')}</${tag}>`;
    })
    .join('');
}

/** The page's canonical text (the text html locators point into). */
export async function htmlWholeText(bytes: Uint8Array): Promise<string> {
  return (await page(bytes)).text;
}
