/** Types of the ingest API (re-exported from index.ts). */
import type { FileFormat, Locator } from '../../shared/types.ts';

export type DetectResult = { ok: true; format: FileFormat; health: string[] } | { ok: false; reason: string };

export type Chunk = { key: string; label: string; body: string; locator: Locator };

export type Extraction = {
  title: string | null;
  occurredAt: string | null;
  health: string[];
  chunks: Chunk[];
};

export type ExtractOptions = { timeoutMs?: number; maxHeapMb?: number };

export type ReadOptions = { timeoutMs?: number };
