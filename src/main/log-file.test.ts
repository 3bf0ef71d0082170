import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatLine, RotatingLog, teeConsole } from './log-file.ts';

const AT = new Date('2026-12-04T10:00:00.000Z');

describe('the app log ([N12] in docs/PACKAGING.md)', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'brain-logs-')), 'logs');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('writes a line with the time and the source, continuation lines indented', () => {
    expect(formatLine(AT, 'engine', 'boom\nat x\n')).toBe(
      '2026-12-04T10:00:00.000Z [engine] boom\n    at x\n',
    );
    const log = new RotatingLog(dir);
    log.write('main info', 'started', AT);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe(
      '2026-12-04T10:00:00.000Z [main info] started\n',
    );
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, 'main.log')).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it('rotates by size and keeps the newest files only', () => {
    const log = new RotatingLog(dir, { maxBytes: 200, keep: 2 });
    const line = 'x'.repeat(60); // 96 bytes a line with its prefix
    for (let i = 0; i < 9; i++) log.write('main info', `${i} ${line}`, AT);
    expect(readdirSync(dir).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    expect(read('main.log')).toContain(' 8 ');
    expect(read('main.1.log')).toMatch(/ 6 [\s\S]* 7 /);
    expect(read('main.2.log')).toMatch(/ 4 [\s\S]* 5 /);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(200);
  });

  it('goes on from the size a log already has after a restart', () => {
    new RotatingLog(dir, { maxBytes: 150 }).write('a', 'y'.repeat(80), AT);
    new RotatingLog(dir, { maxBytes: 150 }).write('a', 'z'.repeat(80), AT);
    expect(existsSync(join(dir, 'main.1.log'))).toBe(true);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toContain('zzz');
  });

  it('never throws when it cannot write', () => {
    const log = new RotatingLog(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(() => log.write('main error', 'lost', AT)).not.toThrow();
  });

  it('tees the console: each call still prints and is logged', () => {
    const log = new RotatingLog(dir);
    const printed = { log: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const target = { ...printed };
    teeConsole(log, target as unknown as Console);
    target.error('[ipc] %s failed:', 'files.add', new Error('nope'));
    target.log('plain', 42);
    const text = readFileSync(join(dir, 'main.log'), 'utf8');
    expect(text).toMatch(/\[main error\] \[ipc\] files\.add failed: Error: nope/);
    expect(text).toMatch(/\[main info\] plain 42\n/);
    expect(printed.error).toHaveBeenCalledWith('[ipc] %s failed:', 'files.add', expect.any(Error));
    expect(printed.log).toHaveBeenCalledWith('plain', 42);
  });
});
