/** Small, pure formatters for sizes, times and citations. */
import type { Citation, Locator } from '#shared/types.ts';

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  let value = (t - now) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function lines(a: number, b: number): string {
  return a === b ? `line ${a}` : `lines ${a}–${b}`;
}

export function describeLocator(locator: Locator | null | undefined): string | null {
  if (!locator) return null;
  switch (locator.type) {
    case 'pdf':
      return `p. ${locator.page}, ${lines(locator.lineStart, locator.lineEnd)}`;
    case 'xlsx':
      return `${locator.sheet}, rows ${locator.rowStart}–${locator.rowEnd}`;
    case 'csv':
      return `rows ${locator.rowStart}–${locator.rowEnd}`;
    case 'pptx':
      return `slide ${locator.slide}`;
    case 'text':
    case 'docx':
    case 'html':
    case 'image':
      return lines(locator.lineStart, locator.lineEnd);
  }
}

/** Where a citation points, for people: "report.pdf · p. 3, lines 10–14". */
export function describeCitation(c: Citation | null | undefined): string | null {
  if (!c) return null;
  const where =
    describeLocator(c.locator) ??
    (c.page ? `p. ${c.page}` : c.lineStart ? lines(c.lineStart, c.lineEnd ?? c.lineStart) : null);
  const name = c.repo?.path ?? c.fileLabel;
  const at = c.repo?.commit ? ` @ ${c.repo.commit.slice(0, 7)}` : '';
  return where ? `${name} · ${where}${at}` : `${name}${at}`;
}

export { plural } from '#shared/plural.ts';
