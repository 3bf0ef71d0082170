/** Messages between the ingest worker pool and its worker thread. */
import type { TransferableError } from '#shared/errors.ts';
import type { FileFormat, Locator } from '#shared/types.ts';
import type { Extraction, PageProgress } from './types.ts';

type WorkerFormat = Extract<FileFormat, 'pdf' | 'docx' | 'xlsx' | 'csv' | 'html' | 'pptx' | 'image'>;

/**
 * `password`: for this one extraction of a password-protected file, never kept (docs/SECURITY.md [U1]).
 * `forceOcr`: every PDF page read by OCR, its text layer ignored (docs/OCR.md [O9]).
 */
export type WorkerRequest =
  | {
      op: 'extract';
      format: WorkerFormat;
      bytes: Uint8Array;
      fileLabel: string;
      ocr?: string[];
      forceOcr?: boolean;
      password?: string;
    }
  | { op: 'read'; format: WorkerFormat; bytes: Uint8Array; locator: Locator }
  | { op: 'whole'; format: WorkerFormat; bytes: Uint8Array; ocr?: string[]; forceOcr?: boolean };

/**
 * `beat`: the job is still making progress (one page done), so its timer starts again; `progress`
 * says which page of how many.
 */
export type WorkerReply =
  | { id: number; beat: true; progress?: PageProgress }
  | { id: number; ok: true; value: Extraction | string }
  | { id: number; ok: false; error: TransferableError };
