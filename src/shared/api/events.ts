/** Events the engine pushes to the app (IPC events in Electron, server-sent events in the browser). */
import type { AddReport, StatusView } from './types.ts';

export type IndexProgressEvent = {
  fileId: string;
  label: string;
  phase: 'queued' | 'indexing' | 'indexed' | 'failed' | 'embedding';
  reason?: string;
  sections?: number;
  /** The queue as a whole: files done of files asked for in this batch. */
  done: number;
  total: number;
  /** While `indexing` a PDF: the page just read and the page count (docs/OCR.md [O4]). */
  page?: number;
  pages?: number;
};

/** A source's compile pass, as knowledge.compile answers it (src/shared/api/ops/compile.ts). */
export type CompileProgressEvent = {
  id: string;
  label: string;
  state: 'done' | 'skipped' | 'stale' | 'busy' | 'failed';
  facts: number;
  added: number;
  retired: number;
  entities: number;
  cards: number;
  error: string | null;
  /** Sources done of the sources asked for. */
  done: number;
  total: number;
};

/**
 * The desktop app's main process to its window (docs/PACKAGING.md [N8], [N10], [N13]): files it
 * added for the OS or the File menu, with the report a drop gets; the Watch Folder dialog to open;
 * the engine process restarting after a crash.
 */
export type AppCommandEvent =
  | { command: 'added'; report: AddReport; source: string }
  | { command: 'watch-folder' }
  /** The engine process stopped by itself: main is starting it again, or gave up ([N13]). */
  | { command: 'engine'; kind: 'restarting'; reason: string; attempt: number }
  | { command: 'engine'; kind: 'gave-up'; reason: string }
  /** An update was downloaded (installed when the app next quits), or its check failed ([N14]). */
  | { command: 'update'; kind: 'downloaded'; version: string }
  | { command: 'update'; kind: 'failed'; message: string }
  /** A backup was put in place of the database (or tried): the window loads everything again ([N18]). */
  | { command: 'restored'; name: string };

/** A drop being added: files handled (added, unchanged or refused) of the files it holds. */
type AddProgressEvent = { done: number; total: number };

export type Events = {
  'index.progress': IndexProgressEvent;
  /** Sent while a big drop is added (a few times a second) and when it is done; lists may ignore it. */
  'add.progress': AddProgressEvent;
  /** Files were added, changed, retired or re-indexed: lists should refresh. */
  'files.changed': { ids: string[] };
  'status.changed': StatusView;
  'chat.changed': { threadId: string };
  'activity.changed': { at: string };
  /** A piece of a streamed chat answer; the stored turn follows in chat.send's result. */
  'chat.delta': { threadId: string; turnId: string; text: string };
  /** Proposals were added or decided: inbox lists and the rail's count refresh. */
  'inbox.changed': { at: string };
  /** The embedding model's download, waited for (the command line): the share done and the file. */
  'model.progress': { fraction: number; file: string };
  /** A connected repository's tree was built (or its build failed): tree views refresh. */
  'trees.changed': { tree: string };
  /** One source compiled (or skipped, or failed) of the sources a compile was asked for (docs/FACTS.md [K9]). */
  'compile.progress': CompileProgressEvent;
  /** An export being written (docs/PACKAGING.md [N16]): rows looked at of the rows there are, per phase. */
  'export.progress': { phase: 'items' | 'edges' | 'done'; done: number; total: number };
  /** Electron only: a command from the application menu or the OS (files handed to the app). */
  'app.command': AppCommandEvent;
};

export type EventName = keyof Events;
export const EVENT_NAMES: readonly EventName[] = [
  'index.progress',
  'add.progress',
  'files.changed',
  'status.changed',
  'chat.changed',
  'activity.changed',
  'chat.delta',
  'inbox.changed',
  'model.progress',
  'trees.changed',
  'compile.progress',
  'export.progress',
  'app.command',
];

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}
