/**
 * Which repository paths the tree indexes (docs/TREES.md, "never indexed"), and the path
 * arithmetic of links. Paths are repository-relative with forward slashes, no leading slash.
 *
 * Never indexed, checked in this order (the first that applies is the reason):
 * - a file that is not Markdown: its name does not end in `.md`, in any case;
 * - anything under a `restricted/` folder, at any depth and in any case;
 * - anything under `plugins/` or `scratch/` at the root (these names exactly, as the seed writes
 *   them: Git paths are case-sensitive);
 * - anything under a hidden folder (a folder whose name starts with `.`); a hidden *file* such as
 *   `.notes.md` in a visible folder is indexed, like GitHub shows it;
 * - identifier ledgers: anything under an `identifiers/` folder (at any depth, this name exactly);
 * - a file over 2 MiB.
 */

export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

export const SKIP_NOT_MARKDOWN = 'not Markdown';
export const SKIP_RESTRICTED = 'under a restricted/ folder';
export const SKIP_PLUGINS = 'under plugins/ at the root';
export const SKIP_SCRATCH = 'under scratch/ at the root';
export const SKIP_HIDDEN = 'under a hidden folder';
export const SKIP_IDENTIFIERS = 'an identifier ledger (identifiers/)';
export const SKIP_TOO_LARGE = 'over 2 MiB';

/** Whether a path names a Markdown file (`.md` in any case). */
export function isMarkdownPath(path: string): boolean {
  return /\.md$/i.test(path);
}

/** The reason a path's rules (not its size) keep it out of the tree, or null. */
function pathRuleReason(path: string): string | null {
  const segments = path.split('/').filter((s) => s !== '');
  const folders = segments.slice(0, -1);
  if (folders.some((f) => f.toLowerCase() === 'restricted')) return SKIP_RESTRICTED;
  if (folders[0] === 'plugins') return SKIP_PLUGINS;
  if (folders[0] === 'scratch') return SKIP_SCRATCH;
  if (folders.some((f) => f.startsWith('.'))) return SKIP_HIDDEN;
  if (folders.includes('identifiers')) return SKIP_IDENTIFIERS;
  return null;
}

/**
 * Null when the document at `path` (its size in bytes) is indexed, else the reason it is not.
 */
export function indexablePath(path: string, size: number): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!isMarkdownPath(name)) return SKIP_NOT_MARKDOWN;
  const rule = pathRuleReason(path);
  if (rule) return rule;
  if (size > MAX_DOCUMENT_BYTES) return SKIP_TOO_LARGE;
  return null;
}

/** Whether the tree could ever index a file at this path (its size aside). */
export function couldIndex(path: string): boolean {
  return indexablePath(path, 0) === null;
}

/** The folder of a path, with its trailing slash ('' at the root). */
function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Every folder a path is under, outermost first: `a/b/c.md` → `a/`, `a/b/`. */
export function foldersOf(path: string): string[] {
  const out: string[] = [];
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) out.push(path.slice(0, at + 1));
  return out;
}

/** The last segment of a path (a folder's without its slash). */
export function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** A URL scheme (`https:`, `mailto:`…): a link to outside the repository. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Where a link in a document points inside the repository. */
export type LinkTarget = {
  /** The repository path (a folder's with its trailing slash, '' for the root folder). */
  path: string;
  /** The fragment after `#`, percent-decoded; null when the link has none. */
  fragment: string | null;
};

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Resolves a link destination (as Markdown gives it, escapes undone) written in the document at
 * `from`, the way GitHub and a browser follow it: a URL with a scheme or a protocol-relative
 * `//host` leaves the repository (null); `?query` is dropped; the path is percent-decoded; a path
 * starting with `/` is taken from the repository root (GitHub's rule for links in rendered
 * Markdown); anything else from the document's folder; `.` and `..` segments are folded, and a
 * path that climbs above the root cannot be followed (null). An empty path is the document itself.
 */
export function resolveLink(from: string, destination: string): LinkTarget | null {
  const raw = destination.trim();
  if (raw === '' || SCHEME.test(raw) || raw.startsWith('//') || raw.startsWith('\\\\')) {
    return raw === '' ? { path: from, fragment: null } : null;
  }
  const hash = raw.indexOf('#');
  const beforeHash = hash >= 0 ? raw.slice(0, hash) : raw;
  const fragment = hash >= 0 ? decode(raw.slice(hash + 1)) : null;
  const query = beforeHash.indexOf('?');
  const pathPart = decode(query >= 0 ? beforeHash.slice(0, query) : beforeHash);
  if (pathPart === '') return { path: from, fragment };
  const base = pathPart.startsWith('/') ? '' : folderOf(from);
  const isFolder = pathPart.endsWith('/') || /(^|\/)\.\.?$/.test(pathPart);
  const stack: string[] = [];
  for (const segment of `${base}${pathPart}`.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (stack.length === 0) return null;
      stack.pop();
    } else stack.push(segment);
  }
  if (stack.length === 0) return { path: '', fragment };
  const joined = stack.join('/');
  return { path: isFolder ? `${joined}/` : joined, fragment };
}
