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

/**
 * Within one answer, files that would be shown by the same name are told apart by their folders:
 * the folders all of them end with are left out, then as few of the rest as set them apart
 * (`en/examples/go/index.md` and `tr/examples/go/index.md` titled alike are "… (en)" and "… (tr)";
 * `en/templates` and `ja/テンプレート` are "… (templates)" and "… (テンプレート)"). A name no
 * other file of the answer has stays as it is. `files` maps a file id to its name and path; the
 * answer maps the ids whose name changes to their new name.
 */
export function distinctFileNames(
  files: ReadonlyMap<string, { name: string; path: string | null }>,
): Map<string, string> {
  const byName = new Map<string, string[]>();
  for (const [id, { name }] of files) byName.set(name, [...(byName.get(name) ?? []), id]);
  const renamed = new Map<string, string>();
  for (const [name, ids] of byName) {
    if (ids.length < 2) continue;
    const folders = ids.map((id) =>
      (files.get(id)?.path ?? '')
        .split(/[\\/]+/)
        .filter(Boolean)
        .slice(0, -1),
    );
    // The folders every one of them ends with tell none apart.
    let common = 0;
    while (
      folders.every((f) => f.length > common) &&
      new Set(folders.map((f) => f[f.length - 1 - common])).size === 1
    )
      common++;
    const rest = folders.map((f) => f.slice(0, f.length - common));
    const longest = Math.max(...rest.map((f) => f.length));
    for (let n = 1; n <= longest; n++) {
      const tails = rest.map((f) => f.slice(-n).join('/'));
      if (new Set(tails).size < tails.length && n < longest) continue;
      ids.forEach((id, i) => {
        if (tails[i]) renamed.set(id, `${name} (${tails[i]})`);
      });
      break;
    }
  }
  return renamed;
}
