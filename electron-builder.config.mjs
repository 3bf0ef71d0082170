/**
 * electron-builder's configuration: what the installers hold and how they are made
 * (docs/PACKAGING.md, rules [N1]–[N7]). A module rather than electron-builder.yml because the
 * model folder is an extra resource only when BRAIN_BUNDLE_MODEL=1 ([N6]). `npm run dist`
 * (scripts/dist.mjs) passes it with --config; test/packaging.test.ts checks it against out/.
 */

/** The bundles electron-vite writes (electron.vite.config.ts); out/native (npm start's binding) stays out. */
const BUNDLES = ['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*'];

/** Native code, unpacked beside app.asar: the OS loads it from real files only ([N4], [N5]). */
const ASAR_UNPACK = [
  '**/*.node',
  'node_modules/better-sqlite3/**/*',
  'node_modules/sqlite-vec-*/**/*',
  'node_modules/onnxruntime-node/bin/**/*',
  'node_modules/@img/**/*',
];

/**
 * Never shipped ([N3]): source maps; better-sqlite3's SQLite sources and build leftovers; ONNX
 * Runtime's CUDA and TensorRT providers (the app runs it on the CPU); onnxruntime-web, whose parts
 * transformers.js uses are bundled into its own Node build; tsx and esbuild, which only the
 * clone's `bin/brain.mjs` needs (the app's command line is the bundle out/main/cli.js).
 */
const EXCLUDE = [
  '!**/*.map',
  '!node_modules/{onnxruntime-web,tsx,esbuild,@esbuild}/**/*',
  '!node_modules/better-sqlite3/{deps,src}/**/*',
  '!node_modules/better-sqlite3/build/Release/{obj,obj.target,.deps}/**/*',
  '!node_modules/better-sqlite3/build/Release/test_extension.node',
  '!node_modules/onnxruntime-node/bin/napi-v*/*/*/libonnxruntime_providers_{cuda,tensorrt}*',
];

/**
 * Only the platform's own binaries ([N3]): each target drops the others' ONNX Runtime builds, and
 * `${arch}` (expanded by electron-builder for each architecture it packages) drops the other
 * architecture's ONNX Runtime, sharp and sqlite-vec binaries.
 */
const PLATFORM_EXCLUDE = {
  linux: [
    '!node_modules/onnxruntime-node/bin/napi-v*/{darwin,win32}/**/*',
    '!node_modules/onnxruntime-node/bin/napi-v*/linux/!(${arch})/**/*',
  ],
  mac: [
    '!node_modules/onnxruntime-node/bin/napi-v*/{linux,win32}/**/*',
    '!node_modules/onnxruntime-node/bin/napi-v*/darwin/!(${arch})/**/*',
    '!node_modules/@img/*-darwin-!(${arch})/**/*',
    '!node_modules/@napi-rs/canvas-darwin-!(${arch})/**/*',
    '!node_modules/sqlite-vec-darwin-!(${arch})/**/*',
  ],
  win: [
    '!node_modules/onnxruntime-node/bin/napi-v*/{linux,darwin}/**/*',
    '!node_modules/onnxruntime-node/bin/napi-v*/win32/!(${arch})/**/*',
  ],
};

/**
 * A target's file set. electron-builder uses a platform's `files` in place of the top-level ones,
 * so each platform lists them all, then its own exclusions (seen in dist/builder-debug.yml).
 */
export function filesFor(platform) {
  return [...BUNDLES, 'package.json', ...EXCLUDE, ...PLATFORM_EXCLUDE[platform]];
}

/** The configuration; `env` decides whether the embedding model is bundled ([N6]). */
export function builderConfig(env = process.env) {
  const extraResources = [
    // The sample workspace: src/engine/commands/files.ts finds it at <resources>/sample.
    { from: 'resources/sample', to: 'sample' },
    // The `brain` command line launchers ([N7]).
    { from: 'resources/bin', to: 'bin' },
    // OCR traineddata no npm package carries (Russian): src/engine/ingest/ocr-languages.ts finds
    // it at <resources>/ocr (docs/OCR.md [O7]).
    { from: 'resources/ocr', to: 'ocr' },
  ];
  // src/engine/embed/model-dir.ts looks for <resources>/models/<model id> in a packaged app.
  if (env.BRAIN_BUNDLE_MODEL === '1') extraResources.push({ from: 'resources/models', to: 'models' });

  return {
    appId: 'org.orgbrain.desktop',
    productName: 'Org Brain',
    copyright: 'Copyright © Org Brain contributors',
    directories: { output: 'dist', buildResources: 'resources' },
    files: [...BUNDLES, 'package.json', ...EXCLUDE],
    asar: true,
    asarUnpack: ASAR_UNPACK,
    extraResources,
    // Native modules are rebuilt for Electron's ABI before packaging (@electron/rebuild), from a
    // prebuilt binary where one exists for this Electron, else compiled ([N4]).
    npmRebuild: true,
    buildDependenciesFromSource: false,
    nodeGypRebuild: false,
    // The app opens no file types of its own: it is given files by drop or from its menu ([N1]).
    fileAssociations: [],
    protocols: [],
    // With a feed (BRAIN_UPDATE_URL), electron-builder also writes the feed's latest*.yml beside
    // the installers; nothing is uploaded by it (`npm run dist` passes --publish never) ([N14]).
    publish: env.BRAIN_UPDATE_URL ? [{ provider: 'generic', url: env.BRAIN_UPDATE_URL }] : null,
    linux: {
      target: ['AppImage', 'deb'],
      // The binary in /opt/Org Brain/ (resources/bin/brain starts it); macOS and Windows keep the product name.
      executableName: 'org-brain',
      icon: 'resources/icon.png',
      category: 'Office',
      synopsis: 'A team’s shared memory for people and agents',
      maintainer: 'Org Brain <maintainers@org-brain.invalid>',
      files: filesFor('linux'),
    },
    deb: { packageCategory: 'office' },
    mac: {
      target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
      icon: 'resources/icon.icns',
      category: 'public.app-category.productivity',
      hardenedRuntime: true,
      // Notarized only when scripts/dist.mjs finds Apple's credentials in the environment ([N7]).
      notarize: Boolean(env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID),
      files: filesFor('mac'),
    },
    dmg: { title: 'Org Brain ${version}' },
    win: {
      target: [{ target: 'nsis', arch: ['x64'] }],
      icon: 'resources/icon.ico',
      files: filesFor('win'),
    },
    nsis: {
      oneClick: false,
      perMachine: false,
      allowToChangeInstallationDirectory: true,
      createDesktopShortcut: true,
      createStartMenuShortcut: true,
      shortcutName: 'Org Brain',
      installerIcon: 'resources/icon.ico',
      uninstallerIcon: 'resources/icon.ico',
    },
    artifactName: 'Org-Brain-${version}-${os}-${arch}.${ext}',
  };
}

export default builderConfig();
