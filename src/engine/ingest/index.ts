/**
 * Ingest: format detection for ADD, extraction and chunking for INDEX, and exact read-back of a
 * chunk from its locator. md/txt run in-process (linear time); pdf/docx/xlsx/csv/html/pptx and
 * pictures (OCR, docs/OCR.md) run in a worker thread bounded in time and memory (docs/FORMATS.md [F4]).
 */
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { FileFormat, Locator } from '#shared/types.ts';
import { isCfb } from './office-crypto.ts';
import { extractMarkdown, extractPlainText, readTextLocator, readWholeTextFile } from './text-extract.ts';
import type { Extraction, ExtractOptions, ReadOptions } from './types.ts';
import { closeWorkers, runInWorker } from './worker-pool.ts';
import { assertNotZipBomb, readZipDirectory, ZipDirectoryError } from './zip-directory.ts';

export { detectFormat } from './detect.ts';
export type { Chunk, Extraction } from './types.ts';

const DOC_KIND: Record<string, string> = {
  docx: 'Word document',
  xlsx: 'spreadsheet',
  pptx: 'PowerPoint presentation',
};

/** Checks the sizes a docx/xlsx/pptx directory declares; the worker then counts real ones (zip-verify.ts). */
function guardZip(bytes: Uint8Array, format: FileFormat): void {
  // An encrypted one is checked in the worker, once decrypted (docs/FORMATS.md [F12]).
  if (!(format in DOC_KIND) || isCfb(bytes)) return;
  try {
    assertNotZipBomb(readZipDirectory(bytes));
  } catch (err) {
    if (!(err instanceof ZipDirectoryError)) throw err;
    throw new AppError('refused', `corrupt or unreadable ${DOC_KIND[format]}: ${err.message}`);
  }
}

function guardSize(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new AppError('refused', 'empty file (0 bytes)');
  if (bytes.length > MAX_FILE_BYTES) {
    throw new AppError(
      'refused',
      `too large: ${Math.round(bytes.length / 1048576)} MB (the limit is 100 MB)`,
    );
  }
}

/** Rethrows with the file named in the details, so every boundary can say which file failed. */
function withFile(err: unknown, fileLabel: string): never {
  if (err instanceof AppError) throw new AppError(err.code, err.message, { ...err.details, file: fileLabel });
  throw err;
}

/** Extract + chunk. See the module comment for where each format runs. */
export async function extractFile(
  bytes: Uint8Array,
  format: FileFormat,
  fileLabel: string,
  opts: ExtractOptions = {},
): Promise<Extraction> {
  try {
    guardSize(bytes);
    if (format === 'md') return extractMarkdown(bytes, fileLabel);
    if (format === 'txt') return extractPlainText(bytes, fileLabel);
    guardZip(bytes, format);
    const ocr = opts.ocrLanguages;
    const password = opts.password;
    return (await runInWorker(
      {
        op: 'extract',
        format,
        bytes,
        fileLabel,
        ...(ocr ? { ocr } : {}),
        ...(opts.forceOcr ? { forceOcr: true } : {}),
        ...(password !== undefined ? { password } : {}),
      },
      opts,
    )) as Extraction;
  } catch (err) {
    return withFile(err, fileLabel);
  }
}

/** Reads back exactly the text of a chunk from the raw bytes. */
export async function readLocator(
  bytes: Uint8Array,
  format: FileFormat,
  locator: Locator,
  opts: ReadOptions = {},
): Promise<string> {
  if (format === 'md' || format === 'txt') return readTextLocator(bytes, locator);
  guardZip(bytes, format);
  return (await runInWorker({ op: 'read', format, bytes, locator }, opts)) as string;
}

/** The whole extracted text of a file; lines match the lineStart/lineEnd of text, docx, html and pptx locators. */
export async function readWholeText(
  bytes: Uint8Array,
  format: FileFormat,
  opts: ReadOptions = {},
): Promise<string> {
  if (format === 'md' || format === 'txt') return readWholeTextFile(bytes);
  guardZip(bytes, format);
  const ocr = opts.ocrLanguages;
  const forced = opts.forceOcr ? { forceOcr: true } : {};
  return (await runInWorker(
    { op: 'whole', format, bytes, ...(ocr ? { ocr } : {}), ...forced },
    opts,
  )) as string;
}

/** Shut the worker down (tests, process exit). */
export function closeIngestWorkers(): Promise<void> {
  return closeWorkers();
}
