/** md and txt: decode, chunk (structured for Markdown, flat for text), map to raw byte ranges. */
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { documentTitle, markdownSections, parseFrontMatter } from './markdown.ts';
import { makeByteMapper, makeLineSpanner } from './offset-map.ts';
import { flatPieces, type Piece, structuredPieces } from './sections.ts';
import {
  type DecodedText,
  decodeBytes,
  decodeText,
  detectEncoding,
  isLegacyEncoding,
} from './text-decode.ts';
import type { Chunk, Extraction } from './types.ts';

function encodingNote(decoded: DecodedText): string[] {
  return decoded.encoding === 'utf-8' || isLegacyEncoding(decoded.encoding)
    ? []
    : [`encoding: ${decoded.encoding}`];
}

function toChunks(decoded: DecodedText, pieces: Piece[]): Chunk[] {
  const { text } = decoded;
  const startByte = makeByteMapper(text, decoded.encoding, decoded.dataStart, decoded.unitBytes);
  const endByte = makeByteMapper(text, decoded.encoding, decoded.dataStart, decoded.unitBytes);
  const span = makeLineSpanner(text);
  return pieces.map((p) => {
    const locator: Locator = {
      type: 'text',
      byteStart: startByte(p.start),
      byteEnd: endByte(p.end),
      ...span(p.start, p.end),
    };
    return { key: p.key, label: p.label, body: text.slice(p.start, p.end), locator };
  });
}

function emptyNote(chunks: Chunk[]): string[] {
  return chunks.length === 0 ? ['no text (the file is blank)'] : [];
}

export function extractMarkdown(bytes: Uint8Array, fileLabel: string): Extraction {
  const decoded = decodeText(bytes);
  const fm = parseFrontMatter(decoded.text);
  const title = documentTitle(decoded.text, fm);
  const prefix = title ?? fileLabel;
  const pieces = structuredPieces(decoded.text, markdownSections(decoded.text, fm.bodyStart), prefix);
  const chunks = toChunks(decoded, pieces);
  const health = [...decoded.health, ...encodingNote(decoded), ...fm.health, ...emptyNote(chunks)];
  return { title, occurredAt: fm.occurredAt, datedBy: fm.datedBy, health, chunks };
}

export function extractPlainText(bytes: Uint8Array, fileLabel: string): Extraction {
  const decoded = decodeText(bytes);
  const chunks = toChunks(decoded, flatPieces(decoded.text, '', fileLabel));
  const health = [...decoded.health, ...encodingNote(decoded), ...emptyNote(chunks)];
  // Plain text states no date in a form worth trusting: the file's modified time stands.
  return { title: null, occurredAt: null, datedBy: null, health, chunks };
}

/** Slices the raw bytes and decodes them with the encoding re-detected from the whole file. */
export function readTextLocator(bytes: Uint8Array, locator: Locator): string {
  if (locator.type !== 'text')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a text file`);
  const info = detectEncoding(bytes);
  const { byteStart, byteEnd } = locator;
  if (!(byteStart >= info.dataStart && byteStart < byteEnd && byteEnd <= info.dataEnd)) {
    throw new AppError(
      'stale',
      `locator bytes ${byteStart}–${byteEnd} are outside the file's text (${bytes.length} bytes)`,
    );
  }
  return decodeBytes(bytes.subarray(byteStart, byteEnd), info.encoding);
}

export function readWholeTextFile(bytes: Uint8Array): string {
  return decodeText(bytes).text;
}
