/**
 * Outline entries often repeat the file's name ("report.pdf, page 3"), and flat-chunked PDFs have many
 * sections per page. This turns them into short labels: the heading path without the file name, or
 * "Page 3 · part 2".
 */
import type { OutlineEntry } from '#shared/api/types.ts';

export type OutlineLabel = { id: string; text: string; page: number | null };

export function outlineLabels(outline: readonly OutlineEntry[], fileLabel: string): OutlineLabel[] {
  const perPage = new Map<number, number>();
  const pageCounts = new Map<number, number>();
  for (const e of outline) if (e.page !== null) pageCounts.set(e.page, (pageCounts.get(e.page) ?? 0) + 1);
  return outline.map((e) => {
    let text = e.label.trim();
    if (fileLabel && text.startsWith(fileLabel))
      text = text.slice(fileLabel.length).replace(/^[\s,:>·—-]+/, '');
    if (e.page !== null && (text === '' || /^page\s+\d+$/i.test(text))) {
      const part = (perPage.get(e.page) ?? 0) + 1;
      perPage.set(e.page, part);
      const many = (pageCounts.get(e.page) ?? 0) > 1;
      return { id: e.id, text: many ? `Page ${e.page} · part ${part}` : `Page ${e.page}`, page: null };
    }
    return { id: e.id, text: text || `Section ${e.ordinal}`, page: e.page };
  });
}
