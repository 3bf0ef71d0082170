/**
 * File → Export… ([N16] in docs/PACKAGING.md) as pure functions, so they are tested in Node: the
 * folder an export goes into (a new dated one inside the folder picked, which is rarely empty) and
 * what the message box says about the engine's answer.
 */
import { join } from 'node:path';
import type { BridgeResult } from '#shared/api/bridge.ts';
import { defaultExportName } from '#shared/api/ops/export.ts';

/** `<picked>/Org Brain export YYYY-MM-DD HHMM`. */
export function exportTarget(picked: string, now = new Date()): string {
  return join(picked, defaultExportName(now));
}

type Counts = { files: number; notes: number; entities: number; facts: number; edges: number };

export type ExportMessage = {
  type: 'info' | 'error';
  message: string;
  detail: string;
  /** Where "Show in Folder" goes; null on failure (OK only). */
  folder: string | null;
};

/** The message box after an export, from workspace.export's answer. */
export function exportMessage(result: BridgeResult): ExportMessage {
  if (!result.ok) {
    return { type: 'error', message: 'Could not export', detail: result.error.message, folder: null };
  }
  const { folder, counts } = result.data as { folder: string; counts: Counts };
  return {
    type: 'info',
    message: 'Export finished',
    detail: `${counts.files} files, ${counts.notes} notes, ${counts.entities} entities, ${counts.facts} facts and ${counts.edges} links are in ${folder}. They open without Org Brain; brain import puts them back into an empty workspace.`,
    folder,
  };
}
