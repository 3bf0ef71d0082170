/** Types of the ingest API (re-exported from index.ts). */
import type { FileFormat, Locator } from '#shared/types.ts';

export type DetectResult = { ok: true; format: FileFormat; health: string[] } | { ok: false; reason: string };

export type Chunk = { key: string; label: string; body: string; locator: Locator };

export type Extraction = {
  title: string | null;
  /** The date the document states about itself ([R2] in docs/RETRIEVAL.md), else null. */
  occurredAt: string | null;
  /** Where that date was stated ("front matter `date`", "PDF ModDate"); null with it. */
  datedBy: string | null;
  health: string[];
  chunks: Chunk[];
};

/**
 * `ocrLanguages`: what scans and pictures are read in (docs/OCR.md [O2]); English when absent.
 * `password`: opens a password-protected file for this extraction only (docs/FORMATS.md [F12]).
 */
/** How far the reading of a long file has come: a PDF's pages, one at a time (docs/OCR.md [O4]). */
export type PageProgress = { page: number; pages: number };

export type ExtractOptions = {
  timeoutMs?: number;
  maxHeapMb?: number;
  /** Called as each page of a PDF is read (OCR'd or not), in the calling thread. */
  onProgress?: (progress: PageProgress) => void;
  ocrLanguages?: string[];
  /**
   * Read every PDF page by OCR from its largest image, its text layer ignored: the file is "Read by
   * OCR" (docs/OCR.md [O9]). Pictures are read by OCR anyway; other formats ignore it.
   */
  forceOcr?: boolean;
  password?: string;
};

/** `forceOcr`: the whole text as a file read by OCR gives it ([O9]); a locator carries its own mark. */
export type ReadOptions = { timeoutMs?: number; ocrLanguages?: string[]; forceOcr?: boolean };
