/**
 * Turns an OS drop into a flat list of files with their relative paths. Folders are walked through
 * `webkitGetAsEntry` (the only way a browser page can read a dropped folder). Entries must be taken
 * synchronously inside the drop handler: the DataTransfer is emptied once the event returns.
 */
import type { DroppedFile } from './api.ts';

type Pending = { kind: 'entry'; entry: FileSystemEntry } | { kind: 'file'; file: File };

/** Call synchronously in the drop handler. */
export function takeDropItems(dt: DataTransfer): Pending[] {
  const out: Pending[] = [];
  const items = dt.items ? Array.from(dt.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) out.push({ kind: 'entry', entry });
    else {
      const file = item.getAsFile();
      if (file) out.push({ kind: 'file', file });
    }
  }
  if (out.length === 0) for (const file of Array.from(dt.files)) out.push({ kind: 'file', file });
  return out;
}

/** The relative path to report for a file: the walk's path, else webkitRelativePath, else its name. */
function relativePathOf(file: File, entryPath?: string): string {
  const fromEntry = entryPath?.replace(/^\/+/, '');
  if (fromEntry) return fromEntry;
  if (file.webkitRelativePath) return file.webkitRelativePath;
  return file.name;
}

function readAllEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    // readEntries returns at most ~100 entries per call; keep reading until it returns none.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, out: DroppedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    out.push({ file, path: relativePathOf(file, entry.fullPath) });
  } else if (entry.isDirectory) {
    for (const child of await readAllEntries(entry as FileSystemDirectoryEntry)) await walk(child, out);
  }
}

/** Resolves what takeDropItems captured into files, walking dropped folders. */
export async function resolveDropItems(pending: readonly Pending[]): Promise<DroppedFile[]> {
  const out: DroppedFile[] = [];
  for (const p of pending) {
    if (p.kind === 'file') out.push({ file: p.file, path: relativePathOf(p.file) });
    else await walk(p.entry, out);
  }
  return out;
}

/** Files chosen in an <input type=file> (with or without webkitdirectory). */
export function filesFromInput(list: FileList | null): DroppedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, path: relativePathOf(file) }));
}

/** Whether a drag carries files from the OS (and not, say, selected text). */
export function dragHasFiles(dt: DataTransfer | null): boolean {
  return !!dt && Array.from(dt.types).includes('Files');
}
