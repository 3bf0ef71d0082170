/**
 * JSON lines both ways for an export (layout.ts): written through a buffer by export.ts, read back
 * and checked line by line by import.ts, with the refusal that names the file and the line.
 */
import { closeSync, existsSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { AppError } from '#shared/errors.ts';

/** Appends lines to a file through a buffer: a million sections are not a million writes. */
export class LineFile {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'wx', 0o600);
  }
  write(value: unknown): void {
    const line = `${JSON.stringify(value)}\n`;
    this.parts.push(line);
    this.size += line.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.parts.length) writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * A column that holds JSON text, as JSON when it reads back to the very same text; else, kept
 * exact, as text (an import must give back what was exported, byte for byte).
 */
export function jsonOrText(text: string | null): { value: unknown; text?: string } {
  if (text === null) return { value: null };
  try {
    const parsed: unknown = JSON.parse(text);
    if (JSON.stringify(parsed) === text) return { value: parsed };
  } catch {
    // not JSON: kept as text below
  }
  return { value: null, text };
}

/**
 * The longest line an import reads (32 MiB): an export's lines are rows far shorter (a note's body
 * is at most 20,000 characters, an observation's payload 16 KB), so a longer one is refused by its
 * number before it is held in memory whole.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * The lines of a JSON-lines file, read in 1 MB chunks (an export of a million sections is big); a
 * line's pieces are kept apart until it ends, and one over MAX_LINE_BYTES is refused.
 */
function* lines(dir: string, file: string): Generator<{ n: number; text: string }> {
  const fd = openSync(join(dir, file), 'r');
  const chunk = Buffer.alloc(1 << 20);
  let parts: Buffer[] = [];
  let size = 0;
  let n = 0;
  const take = (piece: Buffer): void => {
    size += piece.length;
    if (size > MAX_LINE_BYTES) throw bad(file, n + 1, `over ${MAX_LINE_BYTES} bytes`);
    parts.push(Buffer.from(piece));
  };
  const line = (): string => {
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    size = 0;
    return text;
  };
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) {
        if (size > 0) {
          const text = line();
          if (text.trim()) yield { n: n + 1, text };
        }
        return;
      }
      const data = chunk.subarray(0, read);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        take(data.subarray(start, nl));
        n++;
        const text = line();
        if (text.trim()) yield { n, text };
        start = nl + 1;
      }
      if (start < data.length) take(data.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A value read from a line as the JSON text a column keeps. JSON nested deeper than the stack can
 * write back is refused by its file and line (JSON.parse reads it; JSON.stringify cannot).
 */
export function jsonText(file: string, n: number, field: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) throw bad(file, n, `${field}: nested too deeply`);
    throw err;
  }
}

/**
 * `file` in `dir` when it is a regular file (a link to one counts) of at most `maxBytes`: never a
 * device that reads forever (/dev/zero) or a pipe whose opening waits for a writer.
 */
export function regularFile(dir: string, file: string, maxBytes = Number.POSITIVE_INFINITY): string {
  const path = join(dir, file);
  const stat = statSync(path);
  if (!stat.isFile()) throw new AppError('validation-failed', `${file} is not a file. Nothing was imported.`);
  if (stat.size > maxBytes) {
    throw new AppError('validation-failed', `${file} is over ${maxBytes} bytes. Nothing was imported.`);
  }
  return path;
}

/** Bad input: the file and the line, and that nothing was imported. */
export function bad(file: string, line: number, reason: string): AppError {
  return new AppError('validation-failed', `${file} line ${line}: ${reason}. Nothing was imported.`, {
    file,
    line,
  });
}

/** Every line of `file` in `dir` checked against `schema`; the first bad one is refused by `bad`. */
export function parseLines<T extends z.ZodTypeAny>(
  schema: T,
  dir: string,
  file: string,
): Array<{ n: number; value: z.infer<T> }> {
  const path = join(dir, file);
  if (!existsSync(path)) throw new AppError('validation-failed', `${path} is missing. Nothing was imported.`);
  regularFile(dir, file);
  const out: Array<{ n: number; value: z.infer<T> }> = [];
  for (const { n, text } of lines(dir, file)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw bad(file, n, 'not JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw bad(file, n, `${issue?.path.join('.') || 'the line'}: ${issue?.message ?? 'invalid'}`);
    }
    out.push({ n, value: parsed.data });
  }
  return out;
}

/** The lines of a file an older export may not have: absent is none. */
export function parseOptionalLines<T extends z.ZodTypeAny>(
  schema: T,
  dir: string,
  file: string,
): Array<{ n: number; value: z.infer<T> }> {
  return existsSync(join(dir, file)) ? parseLines(schema, dir, file) : [];
}
