/** What the command palette can offer, and how it ranks commands against what was typed. */
type PaletteGroup = 'Commands' | 'Tree nodes' | 'Entities' | 'Files' | 'Passages';

export type PaletteItem = {
  id: string;
  group: PaletteGroup;
  label: string;
  hint?: string;
  /** Extra words a command also answers to ("reindex" finds "Index all files"). */
  keywords?: string;
  run: () => void;
};

/** Commands whose label or keywords contain every typed word, best (prefix) matches first. */
export function filterCommands(commands: readonly PaletteItem[], query: string): PaletteItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  return commands
    .map((c) => {
      const label = c.label.toLowerCase();
      const hay = `${label} ${c.keywords ?? ''}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return null;
      const score =
        (label.startsWith(words[0] ?? '') ? 0 : 1) + (words.every((w) => label.includes(w)) ? 0 : 1);
      return { c, score };
    })
    .filter((x): x is { c: PaletteItem; score: number } => x !== null)
    .sort((a, b) => a.score - b.score)
    .map((x) => x.c);
}

/** A short excerpt of `body` around the first occurrence of a query word. */
export function excerpt(body: string, query: string, width = 140): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 1);
  const lower = flat.toLowerCase();
  const at =
    words
      .map((w) => lower.indexOf(w))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, at - Math.floor(width / 3));
  const cut = flat.slice(start, start + width);
  return `${start > 0 ? '…' : ''}${cut}${start + width < flat.length ? '…' : ''}`;
}
