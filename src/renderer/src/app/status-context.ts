/** The live status shared by the status bar, settings and the grid: pushed by `status.changed`. */
import { createContext, useContext } from 'react';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import type { AppInfo, Settings, StatusView } from '#shared/api/types.ts';
import type { ConnectionState } from '../lib/api.ts';

export type QueueView = {
  /** The last progress event of the current batch (null when idle). */
  last: IndexProgressEvent | null;
  done: number;
  total: number;
  /** Files of this batch that failed, and of those how many need a password (done counts both). */
  failed: number;
  locked: number;
};

export type StatusState = {
  info: AppInfo | null;
  status: StatusView | null;
  queue: QueueView;
  connection: ConnectionState;
  refreshStatus: () => void;
  settings: Settings | null;
  /** settings.set, shared by every screen that shows a setting. Throws an AppError on failure. */
  updateSettings: (patch: { indexOnAdd?: boolean; ocrLanguages?: string[] }) => Promise<Settings>;
};

export const StatusContext = createContext<StatusState | null>(null);

export function useStatus(): StatusState {
  const ctx = useContext(StatusContext);
  if (!ctx) throw new Error('useStatus must be used inside <StatusProvider>.');
  return ctx;
}
