/**
 * Where a cited range sits on a drawn PDF page ([F15] in docs/FORMATS.md), as pure functions of
 * what pdf.js gives (text items, an operator list, the viewport's transform): no pdf.js import, so
 * they are tested on their own (pdf-geometry.test.ts).
 * - A text locator counts characters in the page's text built by the shared rule
 *   (src/shared/pdf-text.ts); each item that holds some of them gives the part of its box that holds
 *   them (split in proportion to its characters), boxes on one line are joined.
 * - An OCR locator's bbox is in pixels of the page's largest image (docs/OCR.md [O5]); the image is
 *   drawn in the unit square of the transform in force where it is painted, which places it.
 */

import { pdfPageText } from '#shared/pdf-text.ts';
import type { Bbox } from '#shared/types.ts';

/** A PDF transform [a, b, c, d, e, f]. */
export type Matrix = readonly [number, number, number, number, number, number];

/** A box in the viewport's pixels (CSS pixels at the page's zoom), from its top-left corner. */
export type Rect = { left: number; top: number; width: number; height: number };

/** What the rectangles need of a pdf.js text item (a marked-content item has no `str`). */
type TextItemBox = {
  str: string;
  hasEOL?: boolean;
  transform: readonly number[];
  width: number;
  height: number;
};

/** The glyph box around the baseline, in ems: pdf.js's `height` is the font size. */
const ASCENT = 0.8;
const DESCENT = 0.2;

/** m1 × m2, as pdf.js's Util.transform: apply m2 first, then m1. */
export function multiply(m1: readonly number[], m2: readonly number[]): Matrix {
  const [a1 = 1, b1 = 0, c1 = 0, d1 = 1, e1 = 0, f1 = 0] = m1;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = m2;
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

function apply(m: readonly number[], x: number, y: number): [number, number] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = m;
  return [a * x + c * y + e, b * x + d * y + f];
}

function boundsOf(points: [number, number][]): Rect {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

function isTextItem(item: unknown): item is TextItemBox {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

/** The box of characters [from, to) of one item, its string `len` long, in the viewport. */
function itemPart(item: TextItemBox, from: number, to: number, len: number, viewport: Matrix): Rect | null {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const across = Math.hypot(a, b);
  const up = Math.hypot(c, d);
  if (!(item.width > 0) || across === 0 || up === 0) return null;
  const ux = a / across;
  const uy = b / across;
  const vx = c / up;
  const vy = d / up;
  const size = item.height > 0 ? item.height : up;
  const x0 = (from / len) * item.width;
  const x1 = (to / len) * item.width;
  const at = (along: number, above: number): [number, number] =>
    apply(viewport, e + ux * along + vx * above, f + uy * along + vy * above);
  return boundsOf([
    at(x0, -DESCENT * size),
    at(x1, -DESCENT * size),
    at(x1, ASCENT * size),
    at(x0, ASCENT * size),
  ]);
}

/** Boxes on one line (they overlap by most of their height) that touch or nearly do become one. */
function joinLines(rects: Rect[]): Rect[] {
  const out: Rect[] = [];
  for (const r of rects) {
    const last = out[out.length - 1];
    if (last) {
      const overlap = Math.min(last.top + last.height, r.top + r.height) - Math.max(last.top, r.top);
      const gap = r.left - (last.left + last.width);
      const h = Math.max(last.height, r.height);
      if (overlap > 0.5 * Math.min(last.height, r.height) && gap < h && gap > -last.width - h) {
        out[out.length - 1] = boundsOf([
          [Math.min(last.left, r.left), Math.min(last.top, r.top)],
          [
            Math.max(last.left + last.width, r.left + r.width),
            Math.max(last.top + last.height, r.top + r.height),
          ],
        ]);
        continue;
      }
    }
    out.push(r);
  }
  return out;
}

/**
 * The boxes of characters [start, end) of the page's text, in the viewport whose transform is
 * `viewport` (pdf.js's `viewport.transform`). `items` are getTextContent()'s, in its order.
 */
export function rectsForRange(
  items: readonly unknown[],
  viewport: Matrix,
  start: number,
  end: number,
): Rect[] {
  const { spans } = pdfPageText(items as object[]);
  const rects: Rect[] = [];
  for (const span of spans) {
    if (span.end <= start || span.start >= end || span.end === span.start) continue;
    const item = items[span.index];
    if (!isTextItem(item)) continue;
    const from = Math.max(start, span.start) - span.start;
    const to = Math.min(end, span.end) - span.start;
    const rect = itemPart(item, from, to, span.end - span.start, viewport);
    if (rect && rect.width > 0 && rect.height > 0) rects.push(rect);
  }
  return joinLines(rects);
}

/** The operator numbers the image search reads (pdf.js's OPS). */
export type ImageOps = {
  save: number;
  restore: number;
  transform: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
};

/** A painted image: its size in pixels and the transform that maps its unit square onto the page. */
export type PaintedImage = { width: number; height: number; matrix: Matrix };

/** Smaller than this on both sides: an icon or a rule, not a scan (as src/engine/ingest/pdf-ocr.ts). */
const MIN_IMAGE_SIDE = 32;
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/**
 * The page's largest image, the one the engine OCRs (docs/OCR.md [O3]), with where it is drawn:
 * the operator list is walked keeping the current transform through save/restore, `cm` and forms.
 */
export function largestImage(
  list: { fnArray: readonly number[]; argsArray: readonly unknown[] },
  ops: ImageOps,
): PaintedImage | null {
  let ctm: Matrix = IDENTITY;
  const stack: Matrix[] = [];
  let best: PaintedImage | null = null;
  list.fnArray.forEach((fn, i) => {
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? ctm;
    else if (fn === ops.transform && args) ctm = multiply(ctm, args as number[]);
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = args?.[0];
      if (Array.isArray(matrix) && matrix.length === 6) ctm = multiply(ctm, matrix as number[]);
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === ops.paintImageXObject && args) {
      const width = Number(args[1]);
      const height = Number(args[2]);
      if (!(width > 0 && height > 0) || (width < MIN_IMAGE_SIDE && height < MIN_IMAGE_SIDE)) return;
      if (!best || width * height > best.width * best.height) best = { width, height, matrix: ctm };
    }
  });
  return best;
}

/**
 * An OCR box ([x0, y0, x1, y1] in the image's pixels, y down from its top row) in the viewport:
 * pixel (x, y) is the point (x / width, 1 - y / height) of the image's unit square.
 */
export function bboxToViewport(bbox: Bbox, image: PaintedImage, viewport: Matrix): Rect {
  const [x0, y0, x1, y1] = bbox;
  const toPage = multiply(viewport, image.matrix);
  const at = (x: number, y: number) => apply(toPage, x / image.width, 1 - y / image.height);
  return boundsOf([at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)]);
}
