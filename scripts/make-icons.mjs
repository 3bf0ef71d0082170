#!/usr/bin/env node
/**
 * Renders the app icon (resources/icon.svg) into the files electron-builder reads ([N2] in
 * docs/PACKAGING.md): resources/icon.png (1024 px, Linux and the source of the others),
 * resources/icon.ico (Windows: PNG entries of 16 to 256 px) and resources/icon.icns (macOS: PNG
 * entries of 16 to 1024 px). The outputs are committed; run `node scripts/make-icons.mjs` after
 * changing the SVG.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const resources = fileURLToPath(new URL('../resources/', import.meta.url));
const svg = readFileSync(`${resources}icon.svg`);

/** The SVG rendered to a square PNG of `size` pixels. */
const render = (size) =>
  sharp(svg, { density: Math.max(72, Math.ceil((72 * size) / 1024)) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

/** ICO: a 6-byte header, a 16-byte directory entry an image, then the PNG images ([N2]). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

/** The ICNS element types that hold a PNG, by pixel size ([N2]). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
];

/** ICNS: 'icns' and the file length, then elements of a 4-byte type, a 4-byte length and the PNG. */
function icns(bySize) {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = bySize.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + elements.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...elements]);
}

const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const bySize = new Map();
for (const size of sizes) bySize.set(size, await render(size));

writeFileSync(`${resources}icon.png`, bySize.get(1024));
writeFileSync(
  `${resources}icon.ico`,
  ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: bySize.get(size) }))),
);
writeFileSync(`${resources}icon.icns`, icns(bySize));
console.log('resources/icon.png, icon.ico and icon.icns written.');
