/** App-wide UI state: which screen, what the dossier shows, notices, and the shared dialogs. */
import { createContext, useContext } from 'react';
import type { AddReport } from '#shared/api/types.ts';
import type { DroppedFile } from '../lib/api.ts';

export type View = 'files' | 'trees' | 'chat' | 'inbox' | 'graph' | 'activity' | 'agents' | 'settings';

/** A node of a connected repository to show on the Trees screen (from the palette); seq tells repeats apart. */
export type TreeTarget = { tree: string; node: string; seq: number };

/** How the dossier was opened: from a citation it scrolls to the cited range. */
export type DossierTarget = {
  id: string;
  from: 'select' | 'citation' | 'section' | 'search';
  seq: number;
  /** A range inside the item's own text (a mention) to highlight and scroll to. */
  at?: { start: number; end: number };
};

export type Notice = { id: number; text: string; tone: 'info' | 'success' | 'error' };

/** `indexing`: the added files are already queued for indexing (the sample workspace always is). */
export type AddResult = { report: AddReport; source: string; indexing?: boolean };

export type AppActions = {
  view: View;
  go: (view: View) => void;
  dossier: DossierTarget | null;
  openDossier: (id: string, from?: DossierTarget['from'], at?: DossierTarget['at']) => void;
  closeDossier: () => void;
  notify: (text: string, tone?: Notice['tone']) => void;
  openPalette: () => void;
  openWatchDialog: () => void;
  showAddResult: (result: AddResult) => void;
  /** The open chat thread (null: a new one), kept while switching screens. */
  chatThreadId: string | null;
  setChatThreadId: (id: string | null) => void;
  /** The node the Trees screen was last asked to open, kept while switching screens. */
  treeTarget: TreeTarget | null;
  /** Shows a node of a connected repository on the Trees screen. */
  openTreeNode: (tree: string, node: string) => void;
  /** Adds dropped or picked files (upload or by path) and shows the report. */
  addFiles: (files: DroppedFile[], source: string) => Promise<void>;
  /** Runs sample.load and shows its report. */
  loadSample: () => Promise<void>;
  /** Runs files.index without ids (every file not indexed). */
  indexAll: () => Promise<void>;
};

export const AppContext = createContext<AppActions | null>(null);

export function useApp(): AppActions {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp must be used inside <App>.');
  return ctx;
}
