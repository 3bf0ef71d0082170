import { describe, expect, it } from 'vitest';
import { PackagedPdfData, packagedDataOptions } from './pdf-data.ts';

describe('[F17] pdf.js data from the package', () => {
  const data = new PackagedPdfData();

  it('reads a predefined CMap and a standard font from pdfjs-dist on disk', async () => {
    const cmap = await data.fetch({ kind: 'cMapUrl', filename: 'UniJIS-UCS2-H.bcmap' });
    expect(cmap.byteLength).toBeGreaterThan(1000);
    const font = await data.fetch({ kind: 'standardFontDataUrl', filename: 'FoxitFixed.pfb' });
    expect(font.byteLength).toBeGreaterThan(1000);
    expect(packagedDataOptions()).toMatchObject({ BinaryDataFactory: PackagedPdfData, cMapPacked: true });
  });

  it('refuses a name with a path, an unknown kind and a missing file', async () => {
    await expect(data.fetch({ kind: 'cMapUrl', filename: '../package.json' })).rejects.toThrow(
      /no packaged PDF data/,
    );
    await expect(data.fetch({ kind: 'wasmUrl', filename: 'openjpeg.wasm' })).rejects.toThrow(
      /no packaged PDF data for wasmUrl/,
    );
    await expect(data.fetch({ kind: 'cMapUrl', filename: 'No-Such-CMap.bcmap' })).rejects.toThrow(/ENOENT/);
  });
});
