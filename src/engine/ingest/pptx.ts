/**
 * PPTX ([F8]-[F10] in docs/FORMATS.md): the archive is counted by zip-verify.ts, then the slides
 * are read in the order of ppt/presentation.xml through its relationships. The deck becomes one
 * canonical text (blocks separated by a blank line, slides in order); each slide is a section
 * headed "Slide N: title", and a locator is a character range of that text plus the slide number.
 * Runs in the worker.
 */
import { posix } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { coreDate } from './core-props.ts';
import type { DocumentDate } from './document-date.ts';
import { elementsOf, findAll, notesContent, parseXml, slideContent } from './pptx-xml.ts';
import type { Section } from './sections.ts';
import { structuredPieces } from './sections.ts';
import type { Extraction } from './types.ts';
import { bytesKey, cached } from './worker-cache.ts';
import { type ZipParts, zipParts } from './zip-parts.ts';
import { verifiedZip } from './zip-verify.ts';

/** [F10]: a slide or notes part past this much XML is not parsed. */
const MAX_PART_BYTES = 20 * 1024 * 1024;
const KIND = 'PowerPoint presentation';

type SlideSpan = { n: number; title: string | null; start: number; end: number };
type Skipped = { hidden: number[]; missing: number[]; tooLarge: number[] };
type Deck = {
  text: string;
  slides: SlideSpan[];
  skipped: Skipped;
  tables: number;
  dated: DocumentDate | null;
};

function refused(reason: string): AppError {
  return new AppError('refused', `corrupt or unreadable ${KIND}: ${reason}`);
}

function xmlPart(parts: ZipParts, name: string) {
  const read = parts.read(name);
  if (!read.ok) return read;
  return { ok: true as const, root: parseXml(read.text) };
}

/** A part that is missing, too large or malformed reads as absent (a note says what was skipped). */
function optionalPart(parts: ZipParts, name: string): Element | null {
  try {
    const part = xmlPart(parts, name);
    return part.ok ? part.root : null;
  } catch {
    return null;
  }
}

/** Relationship id → part name, targets resolved against the part's folder. */
function relationships(parts: ZipParts, part: string): { id: string; type: string; target: string }[] {
  const dir = posix.dirname(part);
  const rels = optionalPart(parts, posix.join(dir, '_rels', `${posix.basename(part)}.rels`));
  if (!rels) return [];
  return findAll(rels, 'Relationship').map((r) => {
    const target = r.getAttribute('Target') ?? '';
    const name = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: name };
  });
}

/** The slide parts in presentation order (hidden ones included: slide numbers count them). */
function slideParts(parts: ZipParts): string[] {
  let pres: ReturnType<typeof xmlPart>;
  try {
    pres = xmlPart(parts, 'ppt/presentation.xml');
  } catch (err) {
    throw refused(`ppt/presentation.xml: ${(err as Error).message}`);
  }
  if (!pres.ok) throw refused(`ppt/presentation.xml is ${pres.why}`);
  const rels = new Map(relationships(parts, 'ppt/presentation.xml').map((r) => [r.id, r.target]));
  const list = findAll(pres.root, 'sldIdLst')[0];
  if (!list) return [];
  return elementsOf(list).map((id) => {
    // r:id, whatever prefix the relationships namespace was given (the plain `id` is a number).
    const rid = Array.from(id.attributes).find((a) => a.localName === 'id' && a.prefix)?.value ?? '';
    return rels.get(rid) ?? '';
  });
}

function notesOf(parts: ZipParts, slidePart: string): string[] {
  const rel = relationships(parts, slidePart).find((r) => r.type.endsWith('/notesSlide'));
  if (!rel) return [];
  const notes = optionalPart(parts, rel.target);
  return notes ? notesContent(notes) : [];
}

/** The blocks of one slide, or why it is skipped. */
function slideBlocks(
  parts: ZipParts,
  part: string,
): { title: string | null; blocks: string[]; tables: number } | keyof Skipped {
  const read = part ? parts.read(part) : ({ ok: false, why: 'missing' } as const);
  if (!read.ok) return read.why === 'missing' ? 'missing' : 'tooLarge';
  let content: ReturnType<typeof slideContent>;
  try {
    content = slideContent(parseXml(read.text));
  } catch {
    return 'missing';
  }
  if (content.hidden) return 'hidden';
  const notes = notesOf(parts, part);
  const head = content.title ? [content.title] : [];
  const tail = notes.length > 0 ? ['Notes:', ...notes] : [];
  return { title: content.title, blocks: [...head, ...content.blocks, ...tail], tables: content.tables };
}

async function loadDeck(bytes: Uint8Array): Promise<Deck> {
  const zip = await verifiedZip(bytes, KIND);
  const parts = zipParts(zip, MAX_PART_BYTES);
  const deck: Deck = {
    text: '',
    slides: [],
    skipped: { hidden: [], missing: [], tooLarge: [] },
    tables: 0,
    dated: coreDate(zip),
  };
  const texts: string[] = [];
  let pos = 0;
  slideParts(parts).forEach((part, i) => {
    const slide = slideBlocks(parts, part);
    if (typeof slide === 'string') {
      deck.skipped[slide].push(i + 1);
      return;
    }
    deck.tables += slide.tables;
    const text = slide.blocks.join('\n\n');
    if (!text) return;
    if (texts.length > 0) pos += 2;
    deck.slides.push({ n: i + 1, title: slide.title, start: pos, end: pos + text.length });
    texts.push(text);
    pos += text.length;
  });
  deck.text = texts.join('\n\n');
  return deck;
}

function deckOf(bytes: Uint8Array): Promise<Deck> {
  return cached(bytesKey('pptx', bytes), () => loadDeck(bytes));
}

function healthOf(deck: Deck, chunks: number): string[] {
  const health: string[] = [];
  const { hidden, missing, tooLarge } = deck.skipped;
  if (hidden.length > 0) health.push(`hidden slides skipped: ${hidden.join(', ')}`);
  if (missing.length > 0) health.push(`slides missing or unreadable, skipped: ${missing.join(', ')}`);
  if (tooLarge.length > 0)
    health.push(`slides over ${MAX_PART_BYTES / 1048576} MB of XML, skipped: ${tooLarge.join(', ')}`);
  if (deck.tables > 0) health.push(`tables flattened to text (${deck.tables})`);
  if (chunks === 0) health.push('no text on the slides');
  return health;
}

export async function extractPptx(bytes: Uint8Array, fileLabel: string): Promise<Extraction> {
  const deck = await deckOf(bytes);
  const sections: Section[] = deck.slides.map((s) => ({
    path: [s.title ? `Slide ${s.n}: ${s.title.slice(0, 200)}` : `Slide ${s.n}`],
    start: s.start,
    end: s.end,
  }));
  const slideAt = (charStart: number) => deck.slides.find((s) => charStart < s.end)?.n ?? 1;
  const chunks = charChunks(
    deck.text,
    structuredPieces(deck.text, sections, fileLabel),
    (charStart, charEnd, lines): Locator => ({
      type: 'pptx',
      slide: slideAt(charStart),
      charStart,
      charEnd,
      ...lines,
    }),
  );
  return {
    title: null,
    occurredAt: deck.dated?.at ?? null,
    datedBy: deck.dated?.from ?? null,
    health: healthOf(deck, chunks.length),
    chunks,
  };
}

export async function readPptx(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'pptx')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a presentation`);
  const deck = await deckOf(bytes);
  const slide = deck.slides.find((s) => s.n === locator.slide);
  if (!slide || locator.charStart < slide.start || locator.charEnd > slide.end)
    throw new AppError(
      'stale',
      `slide ${locator.slide} does not hold characters ${locator.charStart}–${locator.charEnd}`,
    );
  return sliceChars(deck.text, locator.charStart, locator.charEnd, 'the deck text');
}

/** The deck's canonical text (the text pptx locators point into). */
export async function pptxWholeText(bytes: Uint8Array): Promise<string> {
  return (await deckOf(bytes)).text;
}
