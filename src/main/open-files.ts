/**
 * Files handed to the app by the operating system: dropped on its icon, opened with it, or named
 * on a second launch's command line ([N8] in docs/PACKAGING.md). Pure: no electron import, so
 * open-files.test.ts runs in plain Node.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeResult } from '#shared/api/bridge.ts';
import type { AppCommandEvent } from '#shared/api/events.ts';
import type { AddReport } from '#shared/api/types.ts';

export type LaunchArgs = {
  /** The launch's argv as Electron reports it (`second-instance`'s argv, or process.argv). */
  argv: readonly string[];
  /** The launch's working directory: relative paths are resolved against it. */
  workingDirectory: string;
  /** app.isPackaged: an unpackaged app's argv holds the app path (`electron .`) after the binary. */
  isPackaged: boolean;
  /** Whether a path names something on disk; the caller passes fs.existsSync. */
  exists: (path: string) => boolean;
};

/**
 * The files and folders a launch asks the app to add, in order and without repeats. Skipped: the
 * executable (argv[0]), every switch (Chromium adds its own, such as `--allow-file-access-from-files`),
 * the app path of an unpackaged app, and whatever does not exist. A `file://` URL is read as its path.
 */
export function filesFromLaunch({ argv, workingDirectory, isPackaged, exists }: LaunchArgs): string[] {
  const operands: string[] = [];
  let afterDoubleDash = false;
  for (const arg of argv.slice(1)) {
    if (!afterDoubleDash && arg === '--') {
      afterDoubleDash = true;
      continue;
    }
    if (!afterDoubleDash && arg.startsWith('-')) continue;
    if (arg.trim() === '') continue;
    operands.push(arg);
  }
  if (!isPackaged) operands.shift();

  const seen = new Set<string>();
  const out: string[] = [];
  for (const operand of operands) {
    const path = toPath(operand, workingDirectory);
    if (path === null || seen.has(path) || !exists(path)) continue;
    seen.add(path);
    out.push(path);
  }
  return out;
}

function toPath(operand: string, workingDirectory: string): string | null {
  if (/^file:/i.test(operand)) {
    try {
      return fileURLToPath(operand);
    } catch {
      return null;
    }
  }
  // Any other URL scheme (org-brain://, https://) is not a file; a Windows drive letter is.
  if (/^[a-z][a-z0-9+.-]+:/i.test(operand) && !/^[a-z]:[\\/]/i.test(operand)) return null;
  return isAbsolute(operand) ? resolve(operand) : resolve(workingDirectory, operand);
}

/** files.add takes at most this many paths a call (its input in src/shared/api/ops/files.ts). */
export const MAX_PATHS_PER_ADD = 10_000;

/** What handOverFiles needs of main: the engine's files.add, and the window's `app.command` event. */
export type HandOver = {
  addFiles: (input: { paths: string[] }) => Promise<BridgeResult>;
  send: (event: AppCommandEvent) => void;
};

/**
 * Adds the files with files.add, as a drop does, and sends the window the report to show ([N8]).
 * Whatever files.add refuses as a whole (the engine not running) is reported for every file.
 */
export async function handOverFiles(paths: readonly string[], source: string, to: HandOver): Promise<void> {
  if (paths.length === 0) return;
  const max = MAX_PATHS_PER_ADD;
  const asked = paths.slice(0, max);
  const result = await to.addFiles({ paths: asked });
  const report: AddReport = result.ok
    ? (result.data as AddReport)
    : { added: [], unchanged: [], refused: asked.map((path) => ({ path, reason: result.error.message })) };
  for (const path of paths.slice(max)) report.refused.push({ path, reason: `At most ${max} files at once.` });
  to.send({ command: 'added', report, source });
}
