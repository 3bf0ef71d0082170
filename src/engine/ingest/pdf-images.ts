/**
 * The images a PDF page paints, decoded, for OCR (docs/OCR.md [O3], [O9]). As unpdf's
 * extractImages, plus the 1-bit images it drops: a black-and-white scan (JBIG2, CCITT fax) is
 * decoded by pdf.js as GRAYSCALE_1BPP, eight pixels a byte, each row padded to a byte, a set bit
 * white; here it is spread to one grey byte a pixel. Runs in the extraction worker.
 */
import { type getDocumentProxy, getResolvedPDFJS } from 'unpdf';

type PdfDoc = Awaited<ReturnType<typeof getDocumentProxy>>;
export type PageImage = {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  key: string;
};
type Decoded = { data?: Uint8ClampedArray | Uint8Array; width?: number; height?: number; kind?: number };

/** pdf.js's ImageKind.GRAYSCALE_1BPP. */
const GRAYSCALE_1BPP = 1;

/** One grey byte a pixel from a 1-bit image whose rows are padded to a byte; a set bit is white. */
export function unpackBits(
  bits: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
): Uint8ClampedArray {
  const rowBytes = Math.ceil(width / 8);
  const out = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++) {
      out[y * width + x] = (bits[row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
  }
  return out;
}

function asImage(key: string, image: Decoded | null | undefined): PageImage | null {
  const { data, width, height, kind } = image ?? {};
  if (!data || !width || !height) return null;
  if (kind === GRAYSCALE_1BPP && data.length === Math.ceil(width / 8) * height)
    return { data: unpackBits(data, width, height), width, height, channels: 1, key };
  const channels = data.length / (width * height);
  if (channels !== 1 && channels !== 3 && channels !== 4) return null;
  const clamped =
    data instanceof Uint8ClampedArray
      ? data
      : new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  return { data: clamped, width, height, channels, key };
}

export async function pageImages(doc: PdfDoc, pageNumber: number): Promise<PageImage[]> {
  const page = await doc.getPage(pageNumber);
  const ops = await page.getOperatorList();
  const { OPS } = await getResolvedPDFJS();
  const images: PageImage[] = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
    const key = ops.argsArray[i]?.[0] as string;
    const objs = key.startsWith('g_') ? page.commonObjs : page.objs;
    const decoded = await new Promise<Decoded | null>((resolve) => objs.get(key, resolve));
    const image = asImage(key, decoded);
    if (image) images.push(image);
  }
  return images;
}
