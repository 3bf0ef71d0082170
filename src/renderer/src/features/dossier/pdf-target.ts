/**
 * Which page of a PDF the dossier opens, and what it highlights there ([F15] in docs/FORMATS.md): a
 * PDF passage's page and characters (narrowed to a mention inside it), or its OCR box; a PDF file's
 * own dossier opens on page 1 with nothing highlighted. Any other format keeps the text view, and
 * so does a PDF indexed with a password: its pages cannot be drawn without the password, which is
 * never kept ([F13]); its text is what was indexed.
 */
import type { ItemView } from '#shared/api/types.ts';
import { UNLOCKED_NOTE } from '#shared/password.ts';
import type { PdfTarget } from './PdfPageView.tsx';

export function pdfTargetOf(
  item: Pick<ItemView, 'storageKind' | 'locator'>,
  file: Pick<ItemView, 'format' | 'health'> | undefined,
  at?: { start: number; end: number },
): PdfTarget | null {
  if (file?.format !== 'pdf' || file.health.includes(UNLOCKED_NOTE)) return null;
  const loc = item.locator;
  if (loc?.type === 'pdf') {
    // An OCR'd page's characters count in its OCR text, not in the page's text items: its box says where.
    if (loc.ocr) return { page: loc.page, range: null, bbox: loc.bbox ?? null };
    const inside = at && at.end <= loc.charEnd - loc.charStart;
    const range = inside
      ? { start: loc.charStart + at.start, end: loc.charStart + at.end }
      : { start: loc.charStart, end: loc.charEnd };
    return { page: loc.page, range, bbox: null };
  }
  return item.storageKind === 'file' ? { page: 1, range: null, bbox: null } : null;
}
