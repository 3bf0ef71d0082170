/**
 * Pictures (PNG, JPEG, TIFF, WebP): decoded by sharp, read by OCR (docs/OCR.md [O3]). Runs in the
 * extraction worker. The text is the OCR text of the picture (the first frame of a multi-page
 * TIFF); chunk locators are character ranges of it with the box they were read from ([O5]).
 */
import sharp from 'sharp';
import { AppError } from '#shared/errors.ts';
import type { Locator } from '#shared/types.ts';
import { charChunks, sliceChars } from './char-chunks.ts';
import { boxOf, type OcrText, type Rotation, recognizeAt } from './ocr.ts';
import { flatPieces } from './sections.ts';
import type { Chunk, Extraction } from './types.ts';
import { bytesKey, cached, peek } from './worker-cache.ts';

/** A picture larger than this (about 16k x 16k) is refused rather than decoded. */
const MAX_PIXELS = 268_402_689;

type ImageText = OcrText & { rotation: Rotation; health: string[] };

/** Grey PNG of the first frame, turned upright by its EXIF orientation; refuses what sharp cannot read. */
async function toOcrPng(bytes: Uint8Array): Promise<{ png: Buffer; frames: number }> {
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    const png = await input.rotate().greyscale().png().toBuffer();
    return { png, frames: meta.pages ?? 1 };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('refused', `corrupt or unreadable image: ${reason.slice(0, 200)}`);
  }
}

/**
 * The picture's OCR text. Extraction finds the turn ([O8]); read-back of a locator that recorded
 * its turn reads once at that turn, or takes what extraction just read when it chose the same.
 */
function readImage(bytes: Uint8Array, langs: string[], turn?: Rotation): Promise<ImageText> {
  const found = bytesKey(`image:${langs.join('+')}`, bytes);
  const hit = turn === undefined ? undefined : peek<ImageText>(found);
  if (hit && hit.rotation === turn) return Promise.resolve(hit);
  const key = turn === undefined ? found : `${found}@${turn}`;
  return cached(key, async () => {
    const { png, frames } = await toOcrPng(bytes);
    const text = await recognizeAt(png, langs, turn);
    const health = frames > 1 ? [`${frames} frames: only the first was read`] : [];
    if (!text.text.trim()) health.push('OCR found no text in the picture');
    if (text.rotation !== 0) health.push(`the picture lies turned: read turned ${text.rotation}° clockwise`);
    return { ...text, health };
  });
}

function imageChunks(read: ImageText, ocr: string, fileLabel: string): Chunk[] {
  const pieces = flatPieces(read.text, 'image', fileLabel);
  const turn = read.rotation;
  return charChunks(read.text, pieces, (charStart, charEnd, lines): Locator => {
    const bbox = boxOf(read.lines, charStart, charEnd);
    return { type: 'image', charStart, charEnd, ...lines, ...(bbox ? { bbox } : {}), ocr, turn };
  });
}

export async function extractImage(
  bytes: Uint8Array,
  fileLabel: string,
  langs: string[],
): Promise<Extraction> {
  const read = await readImage(bytes, langs);
  return {
    title: null,
    occurredAt: null,
    datedBy: null,
    health: read.health,
    chunks: imageChunks(read, langs.join('+'), fileLabel),
  };
}

export async function readImageLocator(bytes: Uint8Array, locator: Locator): Promise<string> {
  if (locator.type !== 'image')
    throw new AppError('validation-failed', `a ${locator.type} locator cannot point into a picture`);
  const read = await readImage(bytes, locator.ocr.split('+'), locator.turn);
  return sliceChars(read.text, locator.charStart, locator.charEnd, 'the picture');
}

export async function imageWholeText(bytes: Uint8Array, langs: string[]): Promise<string> {
  return (await readImage(bytes, langs)).text;
}
