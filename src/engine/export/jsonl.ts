/**
 * JSON lines both ways for an export (layout.ts): written through a buffer by export.ts, read back
 * and checked line by line by import.ts, with the refusal that names the file and the line.
 */
import { closeSync, existsSync, openSync, readSync, writeSync } from 'node:fs';
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

/** The lines of a JSON-lines file, read in 1 MB chunks (an export of a million sections is big). */
function* lines(path: string): Generator<{ n: number; text: string }> {
  const fd = openSync(path, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let rest = Buffer.alloc(0);
  let n = 0;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      const data = read > 0 ? Buffer.concat([rest, chunk.subarray(0, read)]) : rest;
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        n++;
        const text = data.subarray(start, nl).toString('utf8');
        if (text.trim()) yield { n, text };
        start = nl + 1;
      }
      rest = Buffer.from(data.subarray(start));
      if (read === 0) {
        if (rest.length && rest.toString('utf8').trim()) yield { n: n + 1, text: rest.toString('utf8') };
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
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
  const out: Array<{ n: number; value: z.infer<T> }> = [];
  for (const { n, text } of lines(path)) {
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
