/**
 * Starts `brain serve --port 0` on a fresh data folder and waits for the line it prints once it listens:
 * "Org Brain is running at http://127.0.0.1:PORT/#token=TOKEN".
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BRAIN = path.join(ROOT, 'bin', 'brain.mjs');
const READY = /Org Brain is running at (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/;

export type Served = {
  url: string;
  origin: string;
  home: string;
  stop: () => Promise<void>;
  output: () => string;
};

export function freshHome(prefix = 'org-brain-e2e-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Runs the CLI against a data folder (e.g. `add <folder> --json` before serving). */
export async function brain(home: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BRAIN, '--home', home, ...args], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

export async function serve(home = freshHome(), timeoutMs = 60_000): Promise<Served> {
  if (!existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error(
      'brain serve serves the built renderer: run `npx electron-vite build` before the e2e tests.',
    );
  }
  const child: ChildProcess = spawn(process.execPath, [BRAIN, '--home', home, 'serve', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`brain serve did not start within ${timeoutMs} ms:\n${out}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = READY.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`brain serve exited with ${code}:\n${out}`));
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(home, { recursive: true, force: true });
  };
  return { url, origin: new URL(url).origin, home, stop, output: () => out };
}
