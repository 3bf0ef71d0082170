#!/usr/bin/env node
/**
 * `npm start`: opens the desktop app when the Electron binary is installed (building it first if needed),
 * and otherwise says so plainly and shows the workspace status from the CLI instead.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

const BUILD_OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

const NO_ELECTRON_MESSAGE =
  'The Electron binary is not installed on this machine and could not be downloaded, so the desktop ' +
  'window cannot open. Serving the same app in your browser instead (`npx brain --help` lists the CLI).';

/** The Electron executable, or null when the binary was not downloaded. */
function resolveElectronBinary() {
  try {
    const binary = require('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs a command with inherited stdio; resolves with its exit code (1 if it could not start or was killed). */
function run(command, args, env = process.env, cwd = root) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit', env });
    const forward = (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const signals = ['SIGINT', 'SIGTERM'];
    for (const signal of signals) process.on(signal, forward);
    const done = (code) => {
      for (const signal of signals) process.off(signal, forward);
      resolve(code);
    };
    child.on('error', (err) => {
      console.error(`Could not start ${command}: ${err.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/**
 * `npm install` leaves Electron's download script out (it cannot run on every machine); the first
 * `npm start` tries it once, quietly, and the browser takes over when it fails.
 */
async function tryDownloadElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return null;
  let installer;
  try {
    installer = join(dirname(require.resolve('electron/package.json')), 'install.js');
  } catch {
    return null;
  }
  if (!existsSync(installer)) return null;
  console.log('Fetching the Electron binary (first start only)…');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [installer], { cwd: root, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGTERM'), 120_000);
    child.on('error', () => resolve(1));
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c ?? 1);
    });
  });
  return code === 0 ? resolveElectronBinary() : null;
}

/**
 * better-sqlite3 in node_modules is built for Node (the CLI, the tests, `brain serve`). Electron
 * has its own ABI, so the desktop app gets its own copy of the binding, fetched (or compiled) once
 * into out/native/electron-<version>/ and handed to the engine process through
 * BRAIN_SQLITE_BINDING; node_modules stays as it is.
 */
async function electronSqliteBinding() {
  const version = require('electron/package.json').version;
  const target = join(root, 'out', 'native', `electron-${version}`, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  const { cpSync, mkdirSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const work = mkdtempSync(join(tmpdir(), 'brain-sqlite-'));
  try {
    const pkg = dirname(require.resolve('better-sqlite3/package.json'));
    cpSync(pkg, join(work, 'better-sqlite3'), {
      recursive: true,
      filter: (p) => !p.includes(`${pkg}/build`),
    });
    const cwd = join(work, 'better-sqlite3');
    const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
    let code = await run(
      process.execPath,
      [prebuild, '--runtime', 'electron', '--target', version],
      process.env,
      cwd,
    );
    if (code !== 0) {
      // No prebuilt binding for this Electron: compile it (node-gyp fetches Electron's headers).
      const args = [
        'rebuild',
        '--release',
        `--target=${version}`,
        '--runtime=electron',
        '--dist-url=https://electronjs.org/headers',
      ];
      code = await run(
        process.platform === 'win32' ? 'npx.cmd' : 'npx',
        ['--yes', 'node-gyp', ...args],
        process.env,
        cwd,
      );
    }
    const built = join(cwd, 'build', 'Release', 'better_sqlite3.node');
    if (code !== 0 || !existsSync(built)) return null;
    mkdirSync(dirname(target), { recursive: true });
    cpSync(built, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const electron = resolveElectronBinary() ?? (await tryDownloadElectron());

  if (!electron) {
    console.log(NO_ELECTRON_MESSAGE);
    const cli = join(root, 'bin', 'brain.mjs');
    if (!existsSync(cli)) {
      console.error('The CLI (bin/brain.mjs) is missing from this checkout.');
      return 1;
    }
    return run(process.execPath, [cli, 'serve', ...process.argv.slice(2)]);
  }

  if (BUILD_OUTPUTS.some((file) => !existsSync(join(root, file)))) {
    const electronVite = join(
      dirname(require.resolve('electron-vite/package.json')),
      'bin',
      'electron-vite.js',
    );
    const code = await run(process.execPath, [electronVite, 'build']);
    if (code !== 0) {
      console.error('Building the desktop app failed; see the output above.');
      return code;
    }
  }

  const binding = await electronSqliteBinding();
  if (!binding) {
    console.error(
      'Could not get better-sqlite3 built for Electron (see above); serving the app in the browser instead.',
    );
    return run(process.execPath, [join(root, 'bin', 'brain.mjs'), 'serve', ...process.argv.slice(2)]);
  }
  // ELECTRON_RUN_AS_NODE would make the binary behave as plain Node instead of opening the app.
  const env = { ...process.env, BRAIN_SQLITE_BINDING: binding };
  delete env.ELECTRON_RUN_AS_NODE;
  return run(electron, ['.'], env);
}

process.exitCode = await main();
