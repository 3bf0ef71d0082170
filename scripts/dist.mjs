#!/usr/bin/env node
/**
 * `npm run dist`: builds the installers for the platform it runs on with electron-builder and
 * electron-builder.config.mjs (docs/PACKAGING.md). Signing and notarization read their secrets
 * from the environment; each one that is missing is named in a warning and that step is skipped
 * ([N7]). Arguments after `--` go to electron-builder (e.g. `npm run dist -- --dir`).
 * Afterwards better-sqlite3 is rebuilt for this Node, since packaging rebuilt it for Electron ([N4]).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** The secrets each platform's signing step reads, and what is skipped without them. */
export function signingWarnings(platform, env) {
  const warnings = [];
  if (platform === 'darwin') {
    if (!env.CSC_LINK && !env.CSC_NAME)
      warnings.push('CSC_LINK (and CSC_KEY_PASSWORD) not set: the macOS app is not signed.');
    if (!(env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID))
      warnings.push('APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD or APPLE_TEAM_ID not set: no notarization.');
  }
  if (platform === 'win32' && !env.WIN_CSC_LINK && !env.CSC_LINK)
    warnings.push('WIN_CSC_LINK (or CSC_LINK) not set: the Windows installer is not signed.');
  return warnings;
}

/** electron-builder's target flags for the platform: every target of electron-builder.config.mjs. */
export function platformFlags(platform) {
  if (platform === 'darwin') return ['--mac', '--arm64', '--x64'];
  if (platform === 'win32') return ['--win', '--x64'];
  return ['--linux'];
}

function run(args, env) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

function main() {
  const missing = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].filter(
    (f) => !existsSync(join(root, f)),
  );
  if (missing.length > 0) {
    console.error(`Missing ${missing.join(', ')}: run \`npm run build\` first.`);
    return 1;
  }
  const env = { ...process.env };
  for (const warning of signingWarnings(process.platform, env)) console.warn(`warning: ${warning}`);
  // Without a certificate electron-builder would look for one in the keychain; say "unsigned" instead.
  if (process.platform === 'darwin' && !env.CSC_LINK && !env.CSC_NAME)
    env.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
  if (env.BRAIN_BUNDLE_MODEL === '1' && !existsSync(join(root, 'resources', 'models'))) {
    console.error('BRAIN_BUNDLE_MODEL=1 but resources/models is missing: put the model folder there first.');
    return 1;
  }

  const cli = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js');
  const extra = process.argv.slice(2);
  const code = run(
    [
      cli,
      '--config',
      'electron-builder.config.mjs',
      ...platformFlags(process.platform),
      // The release workflow attaches the installers itself (.github/workflows/release.yml).
      '--publish',
      'never',
      ...extra,
    ],
    env,
  );

  // Packaging rebuilt better-sqlite3 in node_modules for Electron: give the tests and the CLI theirs back.
  const npm = process.env.npm_execpath;
  if (npm) run([npm, 'rebuild', 'better-sqlite3'], process.env);
  return code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main());
