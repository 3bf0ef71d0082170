/**
 * The installers' configuration (electron-builder.config.mjs) against the built out/ tree
 * (CI builds before testing): what main loads ships, native code is unpacked, only the
 * platform's binaries ship, nothing of the sources or tests does, the sample workspace and the
 * command line ship, the model only with its flag, and the icons are what they claim
 * (docs/PACKAGING.md [N1]–[N7]). Files are matched as electron-builder matches them: minimatch
 * with dot files, each pattern in turn including or excluding.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRawHeader } from '@electron/asar';
import { Minimatch } from 'minimatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const OUT_MAIN = join(ROOT, 'out/main');

type Platform = 'linux' | 'mac' | 'win';
type Resource = { from: string; to: string };
type Config = {
  appId: string;
  productName: string;
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  extraResources: Resource[];
  fileAssociations: unknown[];
  linux: { target: string[]; icon: string; files: string[] };
  mac: { target: { target: string; arch: string[] }[]; icon: string; files: string[] };
  win: { target: { target: string; arch: string[] }[]; icon: string; files: string[] };
};
type ConfigModule = { builderConfig: (env: Record<string, string | undefined>) => Config; default: Config };
type DistModule = {
  signingWarnings: (platform: string, env: Record<string, string | undefined>) => string[];
  platformFlags: (platform: string) => string[];
};

const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(ROOT, file)).href)) as T;

/** electron-builder's matching (app-builder-lib's filter): each pattern flips the answer in turn. */
function matcher(patterns: readonly string[], arch: string): (path: string) => boolean {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: electron-builder's own macro, expanded here as it does
  const parsed = patterns.map((p) => new Minimatch(p.replaceAll('${arch}', arch), { dot: true }));
  return (path) => {
    let match = false;
    for (const pattern of parsed) {
      if (match !== pattern.negate) continue;
      match = pattern.match(path);
    }
    return match;
  };
}

/** Whether an app file (not under node_modules) ships on a platform. */
const ships = (config: Config, platform: Platform, arch = 'x64') => matcher(config[platform].files, arch);
/** Whether a node_modules file of a production dependency ships (electron-builder starts from all). */
const shipsModule = (config: Config, platform: Platform, arch = 'x64') =>
  matcher(['**/*', ...config[platform].files], arch);

/** The production packages: package-lock.json's entries not marked dev. */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([key, meta]) => key.startsWith('node_modules/') && !meta.dev && !meta.devOptional)
    .map(([key]) => key)
    .filter((key) => existsSync(join(ROOT, key)));
}

/** Every file of a package, without its nested node_modules (those are packages of their own). */
function packageFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const path = `${d}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** The files a bundle in out/main loads by name: relative imports, workers, engine host, preload, UI. */
function entriesLoadedBy(file: string): string[] {
  const text = readFileSync(join(OUT_MAIN, file), 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([\w.-]+\.js)["']/g))
    found.add(`out/main/${m[1]}`);
  for (const m of text.matchAll(/["']([a-z]+-worker)["']/g)) found.add(`out/main/${m[1]}.js`);
  for (const m of text.matchAll(/["'](engine-host\.js)["']/g)) found.add(`out/main/${m[1]}`);
  for (const m of text.matchAll(/["']\.\.\/(preload\/[\w.-]+|renderer\/[\w.-]+)["']/g))
    found.add(`out/${m[1]}`);
  return [...found];
}

/** The packages a bundle in out/main imports by bare name. */
function packagesImportedBy(file: string): string[] {
  const text = readFileSync(join(OUT_MAIN, file), 'utf8');
  const found = new Set<string>();
  const specs = [
    ...text.matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']/gm),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1] as string);
  for (const spec of specs) {
    if (spec.startsWith('node:') || spec.startsWith('.')) continue;
    if (!/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+(\/.*)?$/.test(spec)) continue;
    found.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
  }
  return [...found];
}

let config: Config;
let mainFiles: string[];

beforeAll(async () => {
  if (!existsSync(join(OUT_MAIN, 'index.js'))) {
    const built = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  config = (await load<ConfigModule>('electron-builder.config.mjs')).builderConfig({});
  mainFiles = readdirSync(OUT_MAIN).filter((f) => f.endsWith('.js'));
}, 240_000);

describe('electron-builder configuration ([N1])', () => {
  it('is valid for electron-builder, with and without the bundled model', async () => {
    const require = createRequire(join(ROOT, 'node_modules/electron-builder/package.json'));
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (c: unknown, log: { isEnabled: boolean; add: () => void }) => Promise<void>;
    };
    const mod = await load<ConfigModule>('electron-builder.config.mjs');
    for (const env of [
      {},
      { BRAIN_BUNDLE_MODEL: '1' },
      { BRAIN_UPDATE_URL: 'https://updates.example.com/' },
    ]) {
      await validateConfiguration(mod.builderConfig(env), { isEnabled: false, add: () => {} });
    }
    expect(mod.default.appId).toBe(config.appId);
  });

  it('names the app and its targets, with no file associations', () => {
    expect(config.appId).toBe('org.orgbrain.desktop');
    expect(config.productName).toBe('Org Brain');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.fileAssociations).toEqual([]);
    expect(config.asar).toBe(true);
  });
});

describe('the package holds what main loads ([N3])', () => {
  it('ships every entry the bundles load by name, for every platform', () => {
    const loaded = new Set<string>();
    for (const file of mainFiles) for (const entry of entriesLoadedBy(file)) loaded.add(entry);
    // The engine process, every worker, the preload, the UI, the command line: all found by name.
    for (const name of [
      'engine-host',
      'extract-worker',
      'embed-worker',
      'download-worker',
      'vector-worker',
    ]) {
      expect(loaded).toContain(`out/main/${name}.js`);
    }
    expect(loaded).toContain('out/preload/index.cjs');
    expect(loaded).toContain('out/renderer/index.html');
    for (const platform of ['linux', 'mac', 'win'] as const) {
      const shipped = ships(config, platform);
      for (const entry of [...loaded, 'out/main/index.js', 'out/main/cli.js', 'package.json']) {
        expect(existsSync(join(ROOT, entry)), `${entry} exists`).toBe(true);
        expect(shipped(entry), `${entry} ships on ${platform}`).toBe(true);
      }
      for (const asset of readdirSync(join(ROOT, 'out/renderer/assets'))) {
        if (!asset.endsWith('.map')) expect(shipped(`out/renderer/assets/${asset}`)).toBe(true);
      }
    }
  });

  it('is the package.json main, and the app is named org-brain to Electron', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.main).toBe('out/main/index.js');
    // Electron's userData folder is named after package.json's productName or name; the launchers
    // (resources/bin) find the app's workspace there.
    expect(pkg.productName).toBeUndefined();
    expect(pkg.name).toBe('org-brain');
  });

  it('has every package the bundles import among the production dependencies, not excluded', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = new Set<string>();
    for (const file of mainFiles) for (const name of packagesImportedBy(file)) imported.add(name);
    imported.delete('electron');
    expect(imported).toContain('better-sqlite3');
    expect(imported).toContain('sqlite-vec');
    for (const name of imported) {
      expect(Object.keys(pkg.dependencies), `${name} is a dependency`).toContain(name);
      for (const platform of ['linux', 'mac', 'win'] as const) {
        expect(
          shipsModule(config, platform)(`node_modules/${name}/package.json`),
          `${name} on ${platform}`,
        ).toBe(true);
      }
    }
  });

  it('ships nothing of the sources, tests, benchmarks, docs or npm start’s binding', () => {
    const listed = spawnSync(
      'git',
      ['ls-files', 'src', 'test', 'e2e', 'bench', 'docs', 'scripts', 'bin', '.ci'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    ).stdout.split('\n');
    const files = listed.filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    for (const platform of ['linux', 'mac', 'win'] as const) {
      const shipped = ships(config, platform);
      const leaked = [
        ...files,
        'out/native/electron-41.7.1/better_sqlite3.node',
        'out/main/index.js.map',
        'README.md',
        'electron-builder.config.mjs',
      ].filter(shipped);
      expect(leaked, platform).toEqual([]);
    }
  });
});

describe('native code ([N3]–[N5])', () => {
  let modules: string[];
  beforeAll(() => {
    modules = productionPackages().flatMap(packageFiles);
  });

  it('unpacks every native binary this platform’s package ships, and the sqlite-vec extension', () => {
    // This machine's own packages: npm installed only its platform's binaries.
    const target: Platform =
      process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : 'linux';
    const { arch, platform } = process;
    const shipped = shipsModule(config, target, arch);
    const unpacked = matcher(config.asarUnpack, arch);
    const native = modules.filter((f) => /\.(node|so(\.\d+)*|dylib|dll)$/.test(f)).filter(shipped);
    const vec = `node_modules/sqlite-vec-${platform === 'win32' ? 'windows' : platform}-${arch}/vec0.`;
    expect(native).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(native.some((f) => f.startsWith(vec))).toBe(true);
    expect(
      native.some((f) => f.startsWith(`node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/`)),
    ).toBe(true);
    expect(native.some((f) => f.startsWith(`node_modules/@img/sharp-${platform}-${arch}/`))).toBe(true);
    for (const file of native) expect(unpacked(file), `${file} is unpacked`).toBe(true);
  });

  it('ships only the platform’s own ONNX Runtime, sharp and sqlite-vec binaries', () => {
    const onnx = (os: string, arch: string) =>
      `node_modules/onnxruntime-node/bin/napi-v6/${os}/${arch}/onnxruntime_binding.node`;
    const cases: [Platform, string, string[], string[]][] = [
      [
        'linux',
        'x64',
        [onnx('linux', 'x64')],
        [onnx('linux', 'arm64'), onnx('darwin', 'arm64'), onnx('win32', 'x64')],
      ],
      [
        'mac',
        'arm64',
        [
          onnx('darwin', 'arm64'),
          'node_modules/@img/sharp-darwin-arm64/lib/sharp-darwin-arm64.node',
          'node_modules/sqlite-vec-darwin-arm64/vec0.dylib',
        ],
        [
          onnx('darwin', 'x64'),
          onnx('linux', 'x64'),
          onnx('win32', 'x64'),
          'node_modules/@img/sharp-darwin-x64/lib/sharp-darwin-x64.node',
          'node_modules/@img/sharp-libvips-darwin-x64/lib/libvips-cpp.dylib',
          'node_modules/sqlite-vec-darwin-x64/vec0.dylib',
          'node_modules/@napi-rs/canvas-darwin-x64/skia.darwin-x64.node',
        ],
      ],
      [
        'mac',
        'x64',
        [
          onnx('darwin', 'x64'),
          'node_modules/sqlite-vec-darwin-x64/vec0.dylib',
          'node_modules/@img/sharp-darwin-x64/lib/sharp-darwin-x64.node',
        ],
        [
          onnx('darwin', 'arm64'),
          'node_modules/sqlite-vec-darwin-arm64/vec0.dylib',
          'node_modules/@img/sharp-darwin-arm64/lib/sharp-darwin-arm64.node',
        ],
      ],
      [
        'win',
        'x64',
        [onnx('win32', 'x64'), 'node_modules/onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime.dll'],
        [onnx('win32', 'arm64'), onnx('linux', 'x64'), onnx('darwin', 'arm64')],
      ],
    ];
    for (const [platform, arch, kept, dropped] of cases) {
      const shipped = shipsModule(config, platform, arch);
      const unpacked = matcher(config.asarUnpack, arch);
      for (const file of kept) {
        expect(shipped(file), `${file} ships on ${platform}-${arch}`).toBe(true);
        expect(unpacked(file), `${file} is unpacked`).toBe(true);
      }
      for (const file of dropped)
        expect(shipped(file), `${file} stays out of ${platform}-${arch}`).toBe(false);
    }
  });

  it('leaves out the GPU providers, onnxruntime-web, tsx, esbuild and better-sqlite3’s sources', () => {
    const shipped = shipsModule(config, 'linux');
    for (const file of [
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so',
      'node_modules/onnxruntime-web/dist/ort.min.js',
      'node_modules/tsx/dist/cli.mjs',
      'node_modules/esbuild/lib/main.js',
      'node_modules/@esbuild/linux-x64/bin/esbuild',
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/better-sqlite3/src/better_sqlite3.cpp',
      'node_modules/better-sqlite3/build/Release/obj.target/better_sqlite3.node',
      'node_modules/better-sqlite3/build/Release/test_extension.node',
      'node_modules/pdfjs-dist/build/pdf.mjs.map',
    ]) {
      expect(shipped(file), file).toBe(false);
    }
    for (const file of [
      'node_modules/better-sqlite3/lib/index.js',
      'node_modules/pdfjs-dist/cmaps/UniJIS-UTF16-H.bcmap',
      'node_modules/@huggingface/transformers/dist/transformers.node.mjs',
      'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
    ]) {
      expect(shipped(file), file).toBe(true);
    }
  });
});

describe('extra resources ([N6], [N7])', () => {
  it('ships the sample workspace and the command line launchers', () => {
    expect(config.extraResources).toContainEqual({ from: 'resources/sample', to: 'sample' });
    expect(config.extraResources).toContainEqual({ from: 'resources/bin', to: 'bin' });
    expect(config.extraResources).toContainEqual({ from: 'resources/ocr', to: 'ocr' });
    expect(readdirSync(join(ROOT, 'resources/sample')).length).toBeGreaterThan(2);
    for (const file of ['brain', 'brain.cmd'])
      expect(existsSync(join(ROOT, 'resources/bin', file))).toBe(true);
  });

  it('writes an update feed only when BRAIN_UPDATE_URL names one ([N14])', async () => {
    const mod = await load<ConfigModule>('electron-builder.config.mjs');
    expect((mod.builderConfig({}) as unknown as { publish: unknown }).publish).toBeNull();
    expect(
      (
        mod.builderConfig({ BRAIN_UPDATE_URL: 'https://updates.example.com/org-brain/' }) as unknown as {
          publish: unknown;
        }
      ).publish,
    ).toEqual([{ provider: 'generic', url: 'https://updates.example.com/org-brain/' }]);
  });

  it('bundles the model folder only with BRAIN_BUNDLE_MODEL=1', async () => {
    const mod = await load<ConfigModule>('electron-builder.config.mjs');
    const model = { from: 'resources/models', to: 'models' };
    expect(mod.builderConfig({}).extraResources).not.toContainEqual(model);
    expect(mod.builderConfig({ BRAIN_BUNDLE_MODEL: '0' }).extraResources).not.toContainEqual(model);
    expect(mod.builderConfig({ BRAIN_BUNDLE_MODEL: '1' }).extraResources).toContainEqual(model);
  });

  it.skipIf(process.platform === 'win32')(
    'runs the bundled CLI through the launcher, from a link on the PATH',
    () => {
      // An installed layout: <app>/org-brain (here a stand-in that runs Node when asked to, as
      // Electron does with ELECTRON_RUN_AS_NODE), <app>/resources/bin/brain, and app.asar/out/main.
      const dir = mkdtempSync(join(tmpdir(), 'brain-launcher-'));
      try {
        const resources = join(dir, 'app/resources');
        mkdirSync(join(resources, 'bin'), { recursive: true });
        writeFileSync(join(resources, 'bin/brain'), readFileSync(join(ROOT, 'resources/bin/brain')));
        chmodSync(join(resources, 'bin/brain'), 0o755);
        symlinkSync(ROOT, join(resources, 'app.asar'));
        mkdirSync(join(resources, 'models'));
        // Linux: <app>/org-brain beside resources/; macOS: Contents/MacOS/Org Brain beside Contents/Resources.
        const exe = join(resources, '..', process.platform === 'darwin' ? 'MacOS/Org Brain' : 'org-brain');
        mkdirSync(dirname(exe), { recursive: true });
        writeFileSync(
          exe,
          `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || exit 9\necho "model dir: $BRAIN_MODEL_DIR" >&2\necho "home: $BRAIN_HOME" >&2\nexec "${process.execPath}" "$@"\n`,
        );
        chmodSync(exe, 0o755);
        mkdirSync(join(dir, 'path'));
        symlinkSync(join(resources, 'bin/brain'), join(dir, 'path/brain'));
        const run = spawnSync(join(dir, 'path/brain'), ['--help'], {
          encoding: 'utf8',
          env: { ...process.env, BRAIN_MODEL_DIR: '', BRAIN_HOME: '', HOME: dir, XDG_CONFIG_HOME: '' },
        });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toContain('Usage: brain');
        expect(run.stderr).toContain(`model dir: ${join(resources, 'models')}`);
        // The app's own workspace: Electron's userData folder for the app, then workspace/.
        const userData =
          process.platform === 'darwin'
            ? join(dir, 'Library/Application Support/org-brain')
            : join(dir, '.config/org-brain');
        expect(run.stderr).toContain(`home: ${join(userData, 'workspace')}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('icons ([N2])', () => {
  const png = (buf: Buffer) => {
    expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR');
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  };

  it('has a 1024 px PNG for Linux', () => {
    expect(config.linux.icon).toBe('resources/icon.png');
    expect(png(readFileSync(join(ROOT, config.linux.icon)))).toEqual({ width: 1024, height: 1024 });
  });

  it('has an ICO of PNG entries from 16 to 256 px for Windows', () => {
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const size = ico.readUInt8(entry) || 256;
      expect(ico.readUInt8(entry + 1) || 256).toBe(size);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      expect(png(ico.subarray(offset, offset + length))).toEqual({ width: size, height: size });
      sizes.push(size);
    }
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]));
  });

  it('has an ICNS of PNG elements from 16 to 1024 px for macOS', () => {
    const icns = readFileSync(join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: Record<string, number> = {};
    for (let at = 8; at < icns.length; ) {
      const type = icns.subarray(at, at + 4).toString('ascii');
      const length = icns.readUInt32BE(at + 4);
      found[type] = png(icns.subarray(at + 8, at + length)).width;
      at += length;
    }
    expect(found).toEqual({ icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024 });
  });
});

describe('npm run dist (scripts/dist.mjs, [N7])', () => {
  it('warns about each missing signing secret and builds every target of the platform', async () => {
    const dist = await load<DistModule>('scripts/dist.mjs');
    expect(dist.signingWarnings('linux', {})).toEqual([]);
    expect(dist.signingWarnings('darwin', {})).toHaveLength(2);
    expect(
      dist.signingWarnings('darwin', {
        CSC_LINK: 'x',
        APPLE_ID: 'a',
        APPLE_APP_SPECIFIC_PASSWORD: 'p',
        APPLE_TEAM_ID: 't',
      }),
    ).toEqual([]);
    expect(dist.signingWarnings('win32', {})[0]).toContain('WIN_CSC_LINK');
    expect(dist.signingWarnings('win32', { WIN_CSC_LINK: 'x' })).toEqual([]);
    expect(dist.platformFlags('darwin')).toEqual(['--mac', '--arm64', '--x64']);
    expect(dist.platformFlags('linux')).toEqual(['--linux']);
    expect(dist.platformFlags('win32')).toEqual(['--win', '--x64']);
  });

  it('is `npm run dist`', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dist).toBe('node scripts/dist.mjs');
    expect(relative(ROOT, join(ROOT, 'scripts/dist.mjs'))).toBe('scripts/dist.mjs');
  });
});

/**
 * electron-builder itself, offline: it packs the unpacked Linux app (`--dir`) around a stand-in
 * for Electron's distribution (this machine has no Electron binary) without rebuilding native
 * modules, and the archive it writes is read back. What it holds is what an installer holds.
 */
describe.runIf(process.platform === 'linux')('the unpacked Linux app, as electron-builder packs it', () => {
  type Entry = { files?: Record<string, Entry>; unpacked?: boolean; size?: number };
  let work: string;
  let app: string;
  let archive: Map<string, Entry>;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'brain-pack-'));
    const fakeElectron = join(work, 'electron-dist');
    mkdirSync(fakeElectron);
    writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(fakeElectron, 'electron'), 0o755);
    writeFileSync(join(fakeElectron, 'LICENSE'), '');
    const electronVersion = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const packed = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/electron-builder/cli.js'),
        '--config',
        'electron-builder.config.mjs',
        '--linux',
        'dir',
        '--x64',
        `-c.electronDist=${fakeElectron}`,
        `-c.electronVersion=${electronVersion}`,
        '-c.npmRebuild=false',
        `-c.directories.output=${join(work, 'dist')}`,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, BRAIN_BUNDLE_MODEL: '' } },
    );
    if (packed.status !== 0) throw new Error(`electron-builder failed:\n${packed.stdout}\n${packed.stderr}`);
    app = join(work, 'dist/linux-unpacked');
    archive = new Map();
    const walk = (entry: Entry, path: string) => {
      for (const [name, child] of Object.entries(entry.files ?? {})) {
        const childPath = path ? `${path}/${name}` : name;
        if (child.files) walk(child, childPath);
        else archive.set(childPath, child);
      }
    };
    walk(getRawHeader(join(app, 'resources/app.asar')).header as Entry, '');
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('holds every bundle of out/ and package.json, and what main loads by name', () => {
    for (const dir of ['out/main', 'out/preload', 'out/renderer', 'out/renderer/assets']) {
      for (const file of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        if (file.isFile() && !file.name.endsWith('.map'))
          expect(archive.has(`${dir}/${file.name}`), file.name).toBe(true);
      }
    }
    for (const file of mainFiles)
      for (const entry of entriesLoadedBy(file)) expect(archive.has(entry), entry).toBe(true);
    expect(archive.has('package.json')).toBe(true);
  });

  it('holds nothing of the sources, tests, benchmarks, docs or scripts', () => {
    const outside = [...archive.keys()].filter((p) => !p.startsWith('node_modules/'));
    expect(outside.filter((p) => !/^(out\/(main|preload|renderer)\/|package\.json$)/.test(p))).toEqual([]);
    expect([...archive.keys()].filter((p) => p.endsWith('.map'))).toEqual([]);
  });

  it('unpacks every native binary beside the archive, only Linux x64 ones', () => {
    const native = [...archive.entries()].filter(([p]) => /\.(node|so(\.\d+)*|dylib|dll)$/.test(p));
    expect(native.length).toBeGreaterThan(4);
    for (const [path, entry] of native) {
      expect(entry.unpacked, `${path} is unpacked`).toBe(true);
      expect(existsSync(join(app, 'resources/app.asar.unpacked', path)), path).toBe(true);
      expect(path).not.toMatch(/darwin|win32|windows|arm64/);
    }
    const paths = native.map(([p]) => p);
    expect(paths).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(paths).toContain('node_modules/sqlite-vec-linux-x64/vec0.so');
    expect(paths).toContain('node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node');
  });

  it('puts the sample workspace and the launchers in resources, and no model without the flag', () => {
    const resources = join(app, 'resources');
    expect(readdirSync(join(resources, 'sample')).sort()).toEqual(
      readdirSync(join(ROOT, 'resources/sample')).sort(),
    );
    expect(statSync(join(resources, 'bin/brain')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(resources, 'bin/brain.cmd'))).toBe(true);
    // The Russian OCR data no npm package carries (docs/OCR.md [O7]).
    expect(existsSync(join(resources, 'ocr/rus/rus.traineddata.gz'))).toBe(true);
    expect(existsSync(join(resources, 'models'))).toBe(false);
    expect(existsSync(join(app, 'org-brain'))).toBe(true);
  });
});
