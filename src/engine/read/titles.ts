/**
 * What a reader is shown as a document's name ([R5] in docs/RETRIEVAL.md): its title (front
 * matter `title`, else its single top `#` heading, else front matter `name`; stored as the file's
 * summary when it is indexed), else its file name; a file named only by its role in a folder
 * (`index.md`, `README.md`) is shown with that folder, so 200 `index.md` stay apart.
 */
import type { ItemRow } from './items.ts';

const NAMED_BY_FOLDER = /^(index|readme|_index)(\.[a-z0-9]{1,8})?$/i;

/** `index.md` under `…/go-programming-language/` is `go-programming-language/index.md`. */
export function nameWithFolder(name: string, path: string | null): string {
  if (!NAMED_BY_FOLDER.test(name) || !path) return name;
  const parts = path.split(/[\\/]+/).filter(Boolean);
  const folder = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  return folder ? `${folder}/${name}` : name;
}

export function fileTitle(file: Pick<ItemRow, 'label' | 'summary' | 'canonical_value'>): string {
  const title = file.summary?.trim();
  return title || nameWithFolder(file.label, file.canonical_value);
}
