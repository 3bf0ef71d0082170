/**
 * [F15] Where a cited range sits on a drawn PDF page: the boxes of a character range from pdf.js's
 * text items and the viewport's transform, and an OCR box placed through the image's transform.
 * The last case reads a real PDF with pdf.js (unpdf's build, as the engine does) and checks the
 * boxes against where the PDF draws its lines.
 */
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { pdfPageText } from '#shared/pdf-text.ts';
import { buildPdf } from '../../../../../test/ingest-helpers/build-pdf.ts';
import { bboxToViewport, largestImage, type Matrix, multiply, rectsForRange } from './pdf-geometry.ts';

/** A US Letter page at zoom `s`, unrotated: pdf.js's viewport.transform. */
const letter = (s: number): Matrix => [s, 0, 0, -s, 0, 792 * s];

const item = (str: string, x: number, y: number, width: number, hasEOL = false) => ({
  str,
  hasEOL,
  transform: [10, 0, 0, 10, x, y],
  width,
  height: 10,
});

const near = (r: { left: number; top: number; width: number; height: number }) => ({
  left: Math.round(r.left * 100) / 100,
  top: Math.round(r.top * 100) / 100,
  width: Math.round(r.width * 100) / 100,
  height: Math.round(r.height * 100) / 100,
});

describe('[F15] rectsForRange', () => {
  const items = [item('Hello', 40, 760, 25), item(' world', 65, 760, 30, true), item('Second', 40, 746, 30)];

  it('counts characters as the page text does', () => {
    expect(pdfPageText(items).text).toBe('Hello world\nSecond');
  });

  it('boxes a whole item from its baseline and font size, flipped into the viewport', () => {
    expect(rectsForRange(items, letter(1), 0, 5).map(near)).toEqual([
      { left: 40, top: 24, width: 25, height: 10 },
    ]);
    // At zoom 2 everything doubles.
    expect(rectsForRange(items, letter(2), 0, 5).map(near)).toEqual([
      { left: 80, top: 48, width: 50, height: 20 },
    ]);
  });

  it('splits an item in proportion to its characters and joins the items of one line', () => {
    expect(rectsForRange(items, letter(1), 1, 3).map(near)).toEqual([
      { left: 45, top: 24, width: 10, height: 10 },
    ]);
    // "llo world" is one box over both items; the newline holds no box; "Sec" is the next line.
    expect(rectsForRange(items, letter(1), 2, 15).map(near)).toEqual([
      { left: 50, top: 24, width: 45, height: 10 },
      { left: 40, top: 38, width: 15, height: 10 },
    ]);
  });

  it('skips marked-content and empty items, and a range past the text', () => {
    const marked = [{ type: 'beginMarkedContent' }, item('', 0, 0, 0, true), ...items];
    expect(pdfPageText(marked).text).toBe('\nHello world\nSecond');
    expect(rectsForRange(marked, letter(1), 0, 6).map(near)).toEqual([
      { left: 40, top: 24, width: 25, height: 10 },
    ]);
    expect(rectsForRange(items, letter(1), 100, 120)).toEqual([]);
  });

  it('boxes rotated text by its corners', () => {
    // Text running up the page (rotated 90°): the box is tall and narrow.
    const up = { str: 'Up', transform: [0, 10, -10, 0, 100, 100], width: 20, height: 10 };
    expect(near(rectsForRange([up], letter(1), 0, 2)[0] ?? { left: 0, top: 0, width: 0, height: 0 })).toEqual(
      {
        left: 92,
        top: 672,
        width: 10,
        height: 20,
      },
    );
  });
});

describe('[F15] OCR boxes', () => {
  const OPS = {
    save: 10,
    restore: 11,
    transform: 12,
    paintFormXObjectBegin: 74,
    paintFormXObjectEnd: 75,
    paintImageXObject: 85,
  };

  it('finds the largest image with the transform it is drawn with', () => {
    const list = {
      fnArray: [10, 12, 85, 11, 10, 12, 85, 11, 85],
      argsArray: [
        null,
        [20, 0, 0, 20, 5, 5],
        ['img_icon', 16, 16],
        null,
        null,
        [612, 0, 0, 792, 0, 0],
        ['img_scan', 1224, 1584],
        null,
        ['img_after', 40, 40],
      ],
    };
    expect(largestImage(list, OPS)).toEqual({ width: 1224, height: 1584, matrix: [612, 0, 0, 792, 0, 0] });
  });

  it('follows forms and nested transforms', () => {
    const list = {
      fnArray: [12, 74, 12, 85, 75],
      argsArray: [
        [1, 0, 0, 1, 10, 20],
        [
          [2, 0, 0, 2, 0, 0],
          [0, 0, 1, 1],
        ],
        [100, 0, 0, 50, 0, 0],
        ['img', 200, 100],
      ],
    };
    expect(largestImage(list, OPS)?.matrix).toEqual(
      multiply(multiply([1, 0, 0, 1, 10, 20], [2, 0, 0, 2, 0, 0]), [100, 0, 0, 50, 0, 0]),
    );
  });

  it("places a box of the image's pixels (y down) on the page", () => {
    // A 1224×1584 scan over the whole page: 2 pixels a point.
    const scan = { width: 1224, height: 1584, matrix: [612, 0, 0, 792, 0, 0] as Matrix };
    expect(near(bboxToViewport([80, 100, 480, 140], scan, letter(1)))).toEqual({
      left: 40,
      top: 50,
      width: 200,
      height: 20,
    });
    expect(near(bboxToViewport([80, 100, 480, 140], scan, letter(1.5)))).toEqual({
      left: 60,
      top: 75,
      width: 300,
      height: 30,
    });
  });
});

describe('[F15] on a real PDF read by pdf.js', () => {
  it("boxes page 2's second line where the PDF draws it, and counts the engine's characters", async () => {
    const lines = [
      'Ferry timetable for the spring.',
      'The harbour office opens at nine.',
      'Tickets are sold on board.',
    ];
    const bytes = buildPdf([['A first page.'], lines]);
    const doc = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
    try {
      const page = await doc.getPage(2);
      const { items } = await page.getTextContent();
      const { text } = pdfPageText(items);
      const start = text.indexOf(lines[1] as string);
      expect(start).toBeGreaterThan(0);
      const viewport = page.getViewport({ scale: 1.5 });
      const rects = rectsForRange(
        items,
        viewport.transform as unknown as Matrix,
        start,
        start + (lines[1]?.length ?? 0),
      );
      expect(rects).toHaveLength(1);
      const [r] = rects;
      // build-pdf.ts: Helvetica 10 pt, the first line's baseline at (40, 760), 14 pt a line.
      const baseline = (792 - (760 - 14)) * 1.5;
      expect(r?.left).toBeCloseTo(40 * 1.5, 0);
      expect((r?.top ?? 0) + (r?.height ?? 0)).toBeCloseTo(baseline + 2 * 1.5, 0);
      expect(r?.height).toBeCloseTo(10 * 1.5, 0);
      // Helvetica is about half an em a character: the width is the line's, not the page's.
      expect(r?.width).toBeGreaterThan((lines[1]?.length ?? 0) * 10 * 0.4 * 1.5);
      expect(r?.width).toBeLessThan((lines[1]?.length ?? 0) * 10 * 0.6 * 1.5);
    } finally {
      await doc.destroy();
    }
  });
});
