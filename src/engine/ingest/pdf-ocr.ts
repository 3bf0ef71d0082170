/**
 * Whether a PDF page is read by OCR, and reading it (docs/OCR.md [O3], [O4]): a page whose text
 * layer has fewer than OCR_LAYER_MIN_CHARS visible characters is OCR'd from its largest image; a
 * page with a layer (an invisible OCR layer included) keeps it. A page that fails is skipped with
 * a note; the layer text it had is kept. A file "Read by OCR" ([O9]) has every page OCR'd from its
 * largest image, its layer ignored; a page with no image to read keeps its layer, with a note.
 */
import sharp from 'sharp';
import { AppError } from '#shared/errors.ts';
import { type OcrLine, type Rotation, recognizeAt } from './ocr.ts';
import type { PageImage } from './pdf-images.ts';

const OCR_LAYER_MIN_CHARS = 16;
/** Images smaller than this on both sides are icons or rules, not scans. */
const MIN_IMAGE_SIDE = 32;

type Images = PageImage[];
type Image = PageImage;
/** `turn` is the turn the OCR was read at ([O8]); null when the page kept its layer. */
export type OcrPage = { text: string; lines: OcrLine[] | null; turn: Rotation | null; note: string | null };

function largest(images: Images): Image | null {
  let best: Image | null = null;
  for (const img of images) {
    if (img.width < MIN_IMAGE_SIDE && img.height < MIN_IMAGE_SIDE) continue;
    if (!best || img.width * img.height > best.width * best.height) best = img;
  }
  return best;
}

function toPng(img: Image): Promise<Buffer> {
  const data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return sharp(data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .greyscale()
    .png()
    .toBuffer();
}

function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

/**
 * The page's text: the layer as it is, or the layer's few characters, a blank line, then the OCR
 * text; `forced` ([O9]): the OCR text alone, whatever the layer holds. Extraction finds the scan's
 * turn; read-back passes the turn its locator recorded.
 */
export async function ocrPage(
  layer: string,
  images: () => Promise<Images>,
  langs: string[],
  page: number,
  turn?: Rotation,
  forced = false,
): Promise<OcrPage> {
  const kept: OcrPage = { text: layer, lines: null, turn: null, note: null };
  if (!forced && layer.replace(/\s/g, '').length >= OCR_LAYER_MIN_CHARS) return kept;
  try {
    const img = largest(await images());
    if (!img)
      return forced
        ? { ...kept, note: `page ${page}: no scanned image to read by OCR; text layer kept` }
        : kept;
    const read = await recognizeAt(await toPng(img), langs, turn);
    const head = !forced && layer.trim() ? `${layer.replace(/\s+$/, '')}\n\n` : '';
    const lines = read.lines.map((l) => ({ ...l, start: l.start + head.length, end: l.end + head.length }));
    const note = read.rotation
      ? `page ${page}: the scan lies turned; read turned ${read.rotation}° clockwise`
      : null;
    return { text: head + read.text, lines, turn: read.rotation, note };
  } catch (err) {
    if (err instanceof AppError && err.code !== 'refused') throw err;
    return { ...kept, note: `page ${page}: OCR failed (${reasonOf(err)}); skipped` };
  }
}
