/**
 * The app's log in the OS's log folder (app.getPath('logs')), rotated by size ([N12] in
 * docs/PACKAGING.md): `main.log` grows to `maxBytes`, then becomes `main.1.log` (the older ones
 * move up, the oldest beyond `keep` is deleted) and a new `main.log` starts. Main's console and
 * the engine process's output are written here as well as where they went before. Writes are
 * synchronous and never throw: a log that cannot be written is not a reason to stop the app.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';

export type LogOptions = { name?: string; maxBytes?: number; keep?: number };

const LOG_DEFAULTS = { name: 'main', maxBytes: 5 * 1024 * 1024, keep: 3 } as const;

/** One line of the log: the time, the source and level, then the message (no newlines left in it). */
export function formatLine(now: Date, source: string, text: string): string {
  return `${now.toISOString()} [${source}] ${text.replace(/\r?\n(?=.)/g, '\n    ').replace(/\r?\n$/, '')}\n`;
}

export class RotatingLog {
  readonly file: string;
  private readonly name: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private size: number;

  constructor(
    readonly dir: string,
    options: LogOptions = {},
  ) {
    this.name = options.name ?? LOG_DEFAULTS.name;
    this.maxBytes = options.maxBytes ?? LOG_DEFAULTS.maxBytes;
    this.keep = Math.max(1, options.keep ?? LOG_DEFAULTS.keep);
    this.file = join(dir, `${this.name}.log`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // write() tries again and stays silent.
    }
    this.size = sizeOf(this.file);
  }

  /** `<name>.<n>.log`: the n-th older log (1 is the newest of them). */
  older(n: number): string {
    return join(this.dir, `${this.name}.${n}.log`);
  }

  write(source: string, text: string, now = new Date()): void {
    const line = formatLine(now, source, text);
    const bytes = Buffer.byteLength(line);
    try {
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      appendFileSync(this.file, line, { mode: 0o600 });
      this.size += bytes;
    } catch {
      // The log folder is gone or full: the app goes on without it.
    }
  }

  private rotate(): void {
    rmSync(this.older(this.keep), { force: true });
    for (let n = this.keep - 1; n >= 1; n--) renameIfThere(this.older(n), this.older(n + 1));
    renameIfThere(this.file, this.older(1));
    this.size = 0;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // Not there: nothing to move.
  }
}

type ConsoleLike = Pick<Console, 'log' | 'info' | 'warn' | 'error'>;

/** Makes console.log/info/warn/error also write to the log, each still printing as before. */
export function teeConsole(log: RotatingLog, target: ConsoleLike = console): void {
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    const original = target[level].bind(target);
    target[level] = (...args: unknown[]) => {
      original(...args);
      log.write(`main ${level === 'log' ? 'info' : level}`, format(...args));
    };
  }
}
