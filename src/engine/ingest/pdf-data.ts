/**
 * The data files pdf.js needs for some PDFs, read from the pdfjs-dist package on disk, never
 * fetched ([F17] in docs/FORMATS.md): the predefined Adobe CMaps that map the character codes of
 * CID fonts (Japanese, Chinese, Korean PDFs with Identity-H/V encodings and no ToUnicode table)
 * to text, and the standard 14 fonts' data. Handed to pdf.js as its `BinaryDataFactory`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// Not named `require`: the bundler declares its own `require` shim in ESM chunks that use one.
const fromHere = createRequire(import.meta.url);

const FOLDERS: Record<string, string> = { cMapUrl: 'cmaps', standardFontDataUrl: 'standard_fonts' };

let root: string | null | undefined;

function packageRoot(): string | null {
  if (root === undefined) {
    try {
      root = dirname(fromHere.resolve('pdfjs-dist/package.json'));
    } catch {
      root = null;
    }
  }
  return root;
}

/** pdf.js constructs it with its URL options and calls `fetch({ kind, filename })`. */
export class PackagedPdfData {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const folder = FOLDERS[kind];
    const at = packageRoot();
    // A name from inside a PDF ("/Encoding /UniJIS-UCS2-H"): a plain file name only, no path.
    if (!folder || !at || !/^[\w.+-]+$/.test(filename))
      throw new Error(`no packaged PDF data for ${kind} ${filename}`);
    return new Uint8Array(await readFile(join(at, folder, filename)));
  }
}

/** getDocument options that make pdf.js read its CMaps and standard fonts from the package. */
export function packagedDataOptions(): Record<string, unknown> {
  return {
    BinaryDataFactory: PackagedPdfData,
    useWorkerFetch: false,
    // Non-null so pdf.js asks for the data; the factory above ignores the URL and reads the file.
    cMapUrl: 'pdfjs-dist/cmaps/',
    cMapPacked: true,
    standardFontDataUrl: 'pdfjs-dist/standard_fonts/',
  };
}
