/**
 * Outline entries often repeat the file's name ("report.pdf, page 3"), and flat-chunked PDFs have many
 * sections per page. This turns them into short labels: "Page 3 · part 2", or for headings the last
 * heading of the path, indented by its depth under what every entry shares (a Markdown file's title
 * heads every breadcrumb, "Handbook > Benefits > Dental": shown whole, each entry would be cut to the
 * same "Handbook > B…" in the narrow outline). The whole path, without the file name, is the title.
 */
import type { OutlineEntry } from '#shared/api/types.ts';

export type OutlineLabel = {
  id: string;
  text: string;
  /** The heading path, for the tooltip. */
  title: string;
  /** 0 for a top entry; one more for each heading below what all entries share. */
  depth: number;
  page: number | null;
};

const SEPARATOR = ' > ';

function withoutFileName(label: string, fileLabel: string): string {
  const text = label.trim();
  if (fileLabel && text.startsWith(fileLabel))
    return text.slice(fileLabel.length).replace(/^[\s,:>·—-]+/, '');
  return text;
}

/** How many leading headings every path shares. */
function sharedHeadings(paths: string[][]): number {
  const first = paths[0];
  if (!first) return 0;
  let n = 0;
  while (n < first.length && paths.every((p) => p.length > n && p[n] === first[n])) n++;
  return n;
}

export function outlineLabels(outline: readonly OutlineEntry[], fileLabel: string): OutlineLabel[] {
  const perPage = new Map<number, number>();
  const pageCounts = new Map<number, number>();
  for (const e of outline) if (e.page !== null) pageCounts.set(e.page, (pageCounts.get(e.page) ?? 0) + 1);
  const texts = outline.map((e) => withoutFileName(e.label, fileLabel));
  const isPage = (e: OutlineEntry, text: string) =>
    e.page !== null && (text === '' || /^page\s+\d+$/i.test(text));
  const paths = texts.map((t) => t.split(SEPARATOR).map((s) => s.trim()));
  const shared = sharedHeadings(
    paths.filter((_p, i) => texts[i] !== '' && !isPage(outline[i] as OutlineEntry, texts[i] as string)),
  );
  return outline.map((e, i) => {
    const text = texts[i] ?? '';
    if (isPage(e, text) && e.page !== null) {
      const part = (perPage.get(e.page) ?? 0) + 1;
      perPage.set(e.page, part);
      const many = (pageCounts.get(e.page) ?? 0) > 1;
      const label = many ? `Page ${e.page} · part ${part}` : `Page ${e.page}`;
      return { id: e.id, text: label, title: label, depth: 0, page: null };
    }
    if (!text) {
      const label = `Section ${e.ordinal}`;
      return { id: e.id, text: label, title: label, depth: 0, page: e.page };
    }
    const path = paths[i] ?? [text];
    const last = path[path.length - 1] || text;
    return {
      id: e.id,
      text: last,
      title: text,
      depth: Math.max(0, path.length - Math.max(shared, 1)),
      page: e.page,
    };
  });
}
