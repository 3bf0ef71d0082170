/**
 * pdf.js in the renderer, under the app's CSP and with no network ([F15] in docs/FORMATS.md):
 * - the worker is pdfjs-dist's own, bundled by Vite as a same-origin asset (script-src 'self'). A
 *   file:// page (the Electron app) has an origin pdf.js cannot compare, and pdf.js would then start
 *   the worker through a blob: URL, which the CSP refuses: there the worker's code is imported and
 *   runs on the page (pdf.js's "fake worker"), as it does wherever a worker fails to start;
 * - no eval (isEvalSupported: false) and no WebAssembly (useWasm: false: the CSP allows neither);
 * - no font is handed to the page as a FontFace (disableFontFace: glyphs are drawn as paths) and no
 *   system font is asked for; the 14 standard fonts and the CMaps come from pdfjs-dist, bundled
 *   into lazily loaded chunks of the app itself, so pdf.js never fetches anything.
 * Loaded with import() by PdfPageView, so the app's first screen does not carry pdf.js.
 */
import { GlobalWorkerOptions, getDocument, OPS, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { bytesOfBase64 } from '../../lib/base64.ts';
import { type ImageOps, largestImage, type PaintedImage } from './pdf-geometry.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

type Loader = () => Promise<string>;
const STANDARD_FONTS = import.meta.glob<string>(
  '../../../../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}',
  { query: '?inline', import: 'default' },
);
const CMAPS = import.meta.glob<string>('../../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
  query: '?inline',
  import: 'default',
});

function byName(files: Record<string, Loader>): Map<string, Loader> {
  return new Map(Object.entries(files).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1), load]));
}
const FILES: Record<string, Map<string, Loader>> = {
  standardFontDataUrl: byName(STANDARD_FONTS),
  cMapUrl: byName(CMAPS),
};

function bytesOfDataUrl(url: string): Uint8Array {
  const comma = url.indexOf(',');
  const head = url.slice(0, comma);
  const body = url.slice(comma + 1);
  if (!head.endsWith(';base64')) return new TextEncoder().encode(decodeURIComponent(body));
  return bytesOfBase64(body);
}

/** pdf.js's BinaryDataFactory, answered from the bundle: a font or CMap by its file name. */
class BundledData {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const load = FILES[kind]?.get(filename);
    if (!load) throw new Error(`${filename} is not bundled with the app`);
    return bytesOfDataUrl(await load());
  }
}

/** Whether pdf.js can start its worker here: only from an origin it can compare (not file://). */
function workerCanStart(): boolean {
  const origin = URL.parse(window.location.href)?.origin;
  return Boolean(origin) && origin !== 'null';
}

/** Opens a PDF's bytes; destroying the task ends the document and its worker. */
export async function openPdf(data: Uint8Array): Promise<PDFDocumentLoadingTask> {
  // The worker module, imported on the page, registers its handler there (globalThis.pdfjsWorker).
  if (!workerCanStart()) await import(/* @vite-ignore */ workerUrl);
  return getDocument({
    data,
    isEvalSupported: false,
    useWasm: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    // pdf.js asks the factory for files by name; the URLs only say that there are some.
    cMapUrl: 'bundled/',
    cMapPacked: true,
    standardFontDataUrl: 'bundled/',
    BinaryDataFactory: BundledData,
    enableXfa: false,
    verbosity: 0,
  });
}

const IMAGE_OPS: ImageOps = {
  save: OPS.save,
  restore: OPS.restore,
  transform: OPS.transform,
  paintFormXObjectBegin: OPS.paintFormXObjectBegin,
  paintFormXObjectEnd: OPS.paintFormXObjectEnd,
  paintImageXObject: OPS.paintImageXObject,
};

/** The page's largest image and where it is drawn (the one the engine OCRs: docs/OCR.md [O3]). */
export function largestImageOf(list: { fnArray: number[]; argsArray: unknown[] }): PaintedImage | null {
  return largestImage(list, IMAGE_OPS);
}
