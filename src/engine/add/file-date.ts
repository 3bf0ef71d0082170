/**
 * When a file's knowledge is from: the `occurred_at` its row and every one of its sections carry,
 * which search's freshness weight counts from ([R2] in docs/RETRIEVAL.md). In order:
 *
 *  1. the date the document states about itself (front matter, PDF metadata, Office core
 *     properties: src/engine/ingest/document-date.ts), recorded in the file's health as
 *     `dated by …` so every replica and the app's dossier know the date is the document's;
 *  2. otherwise the time the file was last modified, which add.ts stored when the bytes came in.
 *
 * Repository files (a later feature) date by their last commit: a DateSource for them goes into
 * DATE_SOURCES after the document's own date, reading the commit time the repository connector
 * keeps for the file's source key; nothing else here changes.
 */
import type { DocumentDate } from '../ingest/document-date.ts';
import { datedNote, isDatedNote } from '../ingest/document-date.ts';
import type { Extraction } from '../ingest/index.ts';
import type { ItemRow } from '../read/items.ts';

/** One place a file's date can come from; null when it has nothing to say about this file. */
type DateSource = (file: ItemRow, extraction: Extraction) => DocumentDate | null;

const fromDocument: DateSource = (_file, extraction) =>
  extraction.occurredAt ? { at: extraction.occurredAt, from: extraction.datedBy ?? 'the document' } : null;

/** Tried in order; the first date found wins. */
const DATE_SOURCES: readonly DateSource[] = [fromDocument];

export type FileDate = {
  /** For the file and its sections. */
  occurredAt: string | null;
  /** The stated date, when one was found (null: the modified time stands). */
  dated: DocumentDate | null;
};

/**
 * `file` is the row as add.ts left it: its `occurred_at` is the modified time, unless an earlier
 * index of the same bytes already replaced it (then it is that same document date again).
 */
export function fileDate(file: ItemRow, extraction: Extraction): FileDate {
  for (const source of DATE_SOURCES) {
    const dated = source(file, extraction);
    if (dated) return { occurredAt: dated.at, dated };
  }
  return { occurredAt: file.occurred_at, dated: null };
}

/** The file's health notes with the `dated by …` note of this index (and no older one). */
export function withDatedNote(notes: readonly string[], date: FileDate): string[] {
  const kept = notes.filter((n) => !isDatedNote(n));
  return date.dated ? [...kept, datedNote(date.dated.from)] : kept;
}
