/**
 * The `brain` command line as real processes, for tests that use it as scripts and agents do:
 * `node bin/brain.mjs --home <home> ...` with no embedding model (BRAIN_MODEL_DIR names a folder
 * that does not exist) and a chosen local member (BRAIN_USER), on a throwaway workspace made by
 * `cliWorkspace` or on any home through `cli`. `brain serve` has its own helper,
 * test/serve-process.ts.
 */
import { type ChildProcess, execFile, type SpawnOptions, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The command line's entry point. */
export const BRAIN = resolve('bin/brain.mjs');

export type CliResult = { stdout: string; stderr: string; code: number };

export type CliOptions = {
  /** The local member the processes run as (BRAIN_USER); `tester` unless told. */
  user?: string;
  /** Where the embedding model would be (BRAIN_MODEL_DIR). */
  modelDir?: string;
  /** More environment variables, over the others. */
  env?: Record<string, string>;
};

/** `brain` on one home, as one local member, in one environment. */
export type Cli = {
  home: string;
  modelDir: string;
  /** What every process gets: this process's environment, BRAIN_MODEL_DIR, BRAIN_USER, then `env`. */
  readonly env: Record<string, string>;
  /** Runs `brain ...args`; a non-zero exit is in the result, not thrown. */
  brain(...args: string[]): Promise<CliResult>;
  /** Runs `brain ...args --json` and parses what it prints; throws with its stderr if it fails. */
  brainJson<T = unknown>(...args: string[]): Promise<T>;
  /** Runs `brain ...args` and returns what it prints; throws with its stderr if it fails. */
  brainText(...args: string[]): Promise<string>;
  /** Starts `brain ...args` without waiting for it: to kill it midway, or to read what it serves. */
  spawn(args: readonly string[], options?: Omit<SpawnOptions, 'env'>): ChildProcess;
  /** `brain ...args` for another launcher to start, such as the MCP SDK's StdioClientTransport. */
  command(...args: string[]): { command: string; args: string[]; env: Record<string, string> };
  /** The same on another home, as another member, or with more environment variables. */
  with(options: CliOptions & { home?: string }): Cli;
};

/** A fresh workspace: `<root>/home`, an empty `<root>/files` to add from, no model. */
export type CliWorkspace = Cli & { root: string; files: string; remove(): void };

/** `brain --home <home>`, with no model at `options.modelDir`. */
export function cli(home: string, options: CliOptions & { modelDir: string }): Cli {
  const user = options.user ?? 'tester';
  const { modelDir } = options;
  const env = (): Record<string, string> => ({
    ...(process.env as Record<string, string>),
    BRAIN_MODEL_DIR: modelDir,
    BRAIN_USER: user,
    ...options.env,
  });
  const brain = async (...args: string[]): Promise<CliResult> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BRAIN, '--home', home, ...args], {
        env: env(),
        maxBuffer: 64 * 1024 * 1024,
      });
      return { stdout, stderr, code: 0 };
    } catch (err) {
      const e = err as CliResult;
      return { stdout: e.stdout, stderr: e.stderr, code: e.code };
    }
  };
  const succeeded = async (args: string[]): Promise<string> => {
    const r = await brain(...args);
    if (r.code !== 0) throw new Error(`brain ${args.join(' ')} failed (${r.code}) in ${home}: ${r.stderr}`);
    return r.stdout;
  };
  return {
    home,
    modelDir,
    get env() {
      return env();
    },
    brain,
    brainJson: async <T>(...args: string[]) => JSON.parse(await succeeded([...args, '--json'])) as T,
    brainText: (...args) => succeeded(args),
    spawn: (args, spawnOptions = {}) =>
      spawn(process.execPath, [BRAIN, '--home', home, ...args], { ...spawnOptions, env: env() }),
    command: (...args) => ({ command: process.execPath, args: [BRAIN, '--home', home, ...args], env: env() }),
    with: (more) =>
      cli(more.home ?? home, {
        user: more.user ?? user,
        modelDir: more.modelDir ?? modelDir,
        env: { ...options.env, ...more.env },
      }),
  };
}

/**
 * Makes a workspace's folders under a new temporary root (at once, so it can be called in
 * beforeEach or beforeAll) and runs `brain` on it; `remove()` deletes it all.
 */
export function cliWorkspace(prefix: string, options: CliOptions = {}): CliWorkspace {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const files = join(root, 'files');
  mkdirSync(files);
  const at = cli(join(root, 'home'), { ...options, modelDir: options.modelDir ?? join(root, 'no-model') });
  // Onto `at` itself, not a copy of it: its `env` stays a getter.
  return Object.assign(at, { root, files, remove: () => rmSync(root, { recursive: true, force: true }) });
}
