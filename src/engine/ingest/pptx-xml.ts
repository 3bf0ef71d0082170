/**
 * The text of PresentationML slide and notes parts ([F9] in docs/FORMATS.md), read with
 * @xmldom/xmldom (which never loads external entities nor expands DTD-declared ones). Elements are
 * matched by local name, so the transitional and strict namespaces both read. Walks are iterative:
 * a hostile part may nest groups deeply.
 */
import { DOMParser, type Element, onErrorStopParsing } from '@xmldom/xmldom';

/** Placeholders that repeat on every slide and say nothing about it. */
const SKIPPED_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);
const TITLES = new Set(['title', 'ctrTitle']);

export type SlideContent = { title: string | null; blocks: string[]; tables: number; hidden: boolean };

/** The root element; throws on malformed XML (an error, not a warning, stops the parse). */
export function parseXml(text: string): Element {
  const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(text, 'text/xml');
  if (!doc.documentElement) throw new Error('no root element');
  return doc.documentElement;
}

export function elementsOf(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}

function child(el: Element | undefined, name: string): Element | undefined {
  return el ? elementsOf(el).find((c) => c.localName === name) : undefined;
}

/** Descendants named `name`, in document order, not looking inside a match. */
export function findAll(root: Element, name: string): Element[] {
  const out: Element[] = [];
  const stack = elementsOf(root).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.localName === name) out.push(el);
    else stack.push(...elementsOf(el).reverse());
  }
  return out;
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** A paragraph's runs and fields; line breaks and tabs read as spaces. */
function paragraphText(p: Element): string {
  const parts: string[] = [];
  const stack = elementsOf(p).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.localName === 't') parts.push(el.textContent ?? '');
    else if (el.localName === 'br' || el.localName === 'tab') parts.push(' ');
    else stack.push(...elementsOf(el).reverse());
  }
  return clean(parts.join(''));
}

function paragraphs(el: Element): string[] {
  return findAll(el, 'p').map(paragraphText).filter(Boolean);
}

/** The placeholder type of a shape: null when it is no placeholder, 'obj' when it has no type. */
function placeholderOf(sp: Element): string | null {
  const ph = child(child(child(sp, 'nvSpPr'), 'nvPr'), 'ph');
  return ph ? ph.getAttribute('type') || 'obj' : null;
}

function tableRows(frame: Element): string[] {
  return findAll(frame, 'tr')
    .map((tr) =>
      elementsOf(tr)
        .filter((tc) => tc.localName === 'tc')
        .map((tc) => paragraphs(tc).join(' '))
        .join(' | '),
    )
    .filter((row) => row.replace(/[\s|]/g, '') !== '');
}

/** [F9]: of mc:AlternateContent, the Fallback (plain PresentationML) else the first Choice. */
function alternative(el: Element): Element[] {
  const pick = child(el, 'Fallback') ?? child(el, 'Choice');
  return pick ? elementsOf(pick).reverse() : [];
}

/** Shapes, groups and table frames of a shape tree, in document order. */
function shapes(tree: Element): Element[] {
  const out: Element[] = [];
  const stack = elementsOf(tree).reverse();
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.localName === 'grpSp') stack.push(...elementsOf(el).reverse());
    else if (el.localName === 'AlternateContent') stack.push(...alternative(el));
    else if (el.localName === 'sp' || el.localName === 'graphicFrame') out.push(el);
  }
  return out;
}

export function slideContent(root: Element): SlideContent {
  const content: SlideContent = {
    title: null,
    blocks: [],
    tables: 0,
    hidden: root.getAttribute('show') === '0',
  };
  const tree = findAll(root, 'spTree')[0];
  if (!tree) return content;
  for (const el of shapes(tree)) {
    if (el.localName === 'graphicFrame') {
      const rows = tableRows(el);
      if (rows.length > 0) content.tables++;
      content.blocks.push(...rows);
      continue;
    }
    const ph = placeholderOf(el);
    if (ph && SKIPPED_PLACEHOLDERS.has(ph)) continue;
    const paras = paragraphs(el);
    if (ph && TITLES.has(ph) && content.title === null && paras.length > 0) content.title = paras.join(' ');
    else content.blocks.push(...paras);
  }
  return content;
}

/** Speaker notes: the notes page's body placeholders (not its slide image or number). */
export function notesContent(root: Element): string[] {
  const tree = findAll(root, 'spTree')[0];
  if (!tree) return [];
  return shapes(tree)
    .filter((el) => el.localName === 'sp' && placeholderOf(el) === 'body')
    .flatMap(paragraphs);
}
