/** How the CLI talks: JSON on stdout for scripts, readable text for people, errors on stderr. */
import { SingleBar } from 'cli-progress';
import { AppError, toTransferable } from '#shared/errors.ts';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

// Control characters other than tab and line ends: a terminal obeys them (ESC [2J clears it, OSC 0
// retitles it), and the text printed is often a repository's or a teammate's, not ours
// (a connected repository's file names and headings, docs/TREES.md). A lone CR would overwrite the line.
const CONTROL_RE = /\r(?!\n)|[^\P{Cc}\t\n\r]/gu;

/** Text for a terminal: control characters shown as `\u001b` escapes instead of obeyed. */
function visible(text: string): string {
  return text.replace(CONTROL_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A name or path printed as one field of a line: its line breaks too are shown as escapes (a
 * file name may hold one, and would split the line it is printed on).
 */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function print(line = ''): void {
  process.stdout.write(`${visible(line)}\n`);
}

/** `error[<code>]: message` on stderr; exit 1, or 2 for usage errors. */
export function fail(err: unknown): never {
  const t = toTransferable(err);
  process.stderr.write(`error[${t.code}]: ${visible(t.message)}\n`);
  if (!(err instanceof AppError) && process.env.BRAIN_DEBUG && err instanceof Error) {
    process.stderr.write(`${err.stack}\n`);
  }
  process.exit(t.code === 'validation-failed' ? 2 : 1);
}

export type Progress = { update(done: number, total: number, label: string): void; stop(): void };

/** A progress bar on stderr when it is a terminal; silent otherwise (pipes and scripts). */
export function progressBar(title: string): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${title} [{bar}] {value}/{total} {label}`,
    barsize: 24,
    hideCursor: true,
    clearOnComplete: true,
  });
  let started = false;
  return {
    update(done, total, label) {
      if (!started) {
        bar.start(total, done, { label });
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, { label: label.length > 40 ? `${label.slice(0, 39)}…` : label });
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
