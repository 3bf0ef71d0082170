/** "1 section", "2 sections", "1,204 files": a count with its noun, for every surface's text (app and CLI). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
