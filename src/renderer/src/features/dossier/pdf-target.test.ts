/** [F15] The page and highlight a PDF dossier opens with; other formats keep the text view. */
import { describe, expect, it } from 'vitest';
import { UNLOCKED_NOTE } from '#shared/password.ts';
import { pdfTargetOf } from './pdf-target.ts';

const pdf = { format: 'pdf', health: [] as string[] };
const passage = {
  storageKind: 'section' as const,
  locator: { type: 'pdf' as const, page: 3, charStart: 100, charEnd: 180, lineStart: 4, lineEnd: 6 },
};

describe('[F15] pdfTargetOf', () => {
  it("opens a PDF passage on its page with its characters, or a mention's inside them", () => {
    expect(pdfTargetOf(passage, pdf)).toEqual({ page: 3, range: { start: 100, end: 180 }, bbox: null });
    expect(pdfTargetOf(passage, pdf, { start: 10, end: 14 })).toEqual({
      page: 3,
      range: { start: 110, end: 114 },
      bbox: null,
    });
    // A span past the passage is not its own: the whole passage is highlighted.
    expect(pdfTargetOf(passage, pdf, { start: 10, end: 400 })?.range).toEqual({ start: 100, end: 180 });
  });

  it('keeps the text view for a PDF indexed with a password, which cannot be drawn without it', () => {
    const locked = { format: 'pdf', health: [UNLOCKED_NOTE] };
    expect(pdfTargetOf(passage, locked)).toBeNull();
    expect(pdfTargetOf({ storageKind: 'file', locator: null }, locked)).toBeNull();
  });

  it("highlights an OCR'd passage by its box", () => {
    const ocr = {
      ...passage,
      locator: { ...passage.locator, ocr: 'eng', bbox: [1, 2, 3, 4] as [number, number, number, number] },
    };
    expect(pdfTargetOf(ocr, pdf)).toEqual({ page: 3, range: null, bbox: [1, 2, 3, 4] });
  });

  it("opens a PDF file's own dossier on page 1, and keeps other formats' text view", () => {
    expect(pdfTargetOf({ storageKind: 'file', locator: null }, pdf)).toEqual({
      page: 1,
      range: null,
      bbox: null,
    });
    const docx = {
      storageKind: 'section' as const,
      locator: { type: 'docx' as const, charStart: 0, charEnd: 9, lineStart: 1, lineEnd: 1 },
    };
    expect(pdfTargetOf(docx, { format: 'docx', health: [] })).toBeNull();
    expect(pdfTargetOf({ storageKind: 'file', locator: null }, { format: 'xlsx', health: [] })).toBeNull();
    expect(pdfTargetOf({ storageKind: 'note', locator: null }, undefined)).toBeNull();
  });
});
