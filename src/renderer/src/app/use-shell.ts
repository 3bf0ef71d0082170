/**
 * The shell's state: which screen, what the dossier shows, the shared dialogs and notices, and the
 * actions every screen reaches through AppContext. Ctrl/Cmd+K toggles the palette; Esc closes the
 * dossier unless a dialog or menu is open (it takes Esc first).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PaletteItem } from '../features/palette/palette-items.ts';
import { useHotkey } from '../hooks/useHotkey.ts';
import { addDroppedFiles, call, type DroppedFile, subscribe } from '../lib/api.ts';
import { plural } from '../lib/format.ts';
import { type QueueProgress, summarizeReport } from '../lib/upload-queue.ts';
import type { AddResult, AppActions, DossierTarget, Notice, TreeTarget, View } from './app-context.ts';
import { buildCommands } from './commands.ts';

/** Set just before the window reloads after a restore, read once when it is back ([N18]). */
const RESTORED_KEY = 'brain.restored';

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Whether a Radix layer (dialog, menu, tooltip) is open and should get Esc first. */
function layerOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');
}

export type Shell = {
  actions: AppActions;
  commands: PaletteItem[];
  expanded: boolean;
  toggleExpanded: () => void;
  paletteOpen: boolean;
  setPaletteOpen: (open: boolean) => void;
  watchOpen: boolean;
  setWatchOpen: (open: boolean) => void;
  addResult: AddResult | null;
  closeAddResult: () => void;
  notices: Notice[];
  dismissNotice: (id: number) => void;
  upload: QueueProgress | null;
};

export function useShell(): Shell {
  const [view, setView] = useState<View>('files');
  const [dossier, setDossier] = useState<DossierTarget | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [watchOpen, setWatchOpen] = useState(false);
  const [addResult, setAddResult] = useState<AddResult | null>(null);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [upload, setUpload] = useState<QueueProgress | null>(null);
  const [chatThreadId, setChatThreadId] = useState<string | null>(null);
  const [treeTarget, setTreeTarget] = useState<TreeTarget | null>(null);
  const seq = useRef(0);

  const notify = useCallback((text: string, tone: Notice['tone'] = 'info') => {
    const id = ++seq.current;
    setNotices((prev) => [...prev.slice(-3), { id, text, tone }]);
    if (tone !== 'error') setTimeout(() => setNotices((prev) => prev.filter((n) => n.id !== id)), 5000);
  }, []);

  const openDossier = useCallback(
    (id: string, from: DossierTarget['from'] = 'select', at?: DossierTarget['at']) => {
      setDossier({ id, from, seq: ++seq.current, ...(at ? { at } : {}) });
    },
    [],
  );
  const closeDossier = useCallback(() => {
    setDossier(null);
    setExpanded(false);
  }, []);

  const go = useCallback((next: View) => setView(next), []);
  const openTreeNode = useCallback((tree: string, node: string) => {
    setTreeTarget({ tree, node, seq: ++seq.current });
    setView('trees');
  }, []);

  const addFiles = useCallback(
    async (files: DroppedFile[], source: string) => {
      setView('files');
      setUpload({ done: 0, total: files.length, current: null });
      try {
        const report = await addDroppedFiles(files, undefined, setUpload);
        setAddResult({ report, source });
        notify(summarizeReport(report), report.refused.length ? 'info' : 'success');
      } catch (err) {
        notify(`Could not add the files: ${errorText(err)}`, 'error');
      } finally {
        setUpload(null);
      }
    },
    [notify],
  );

  useEffect(() => {
    let restored: string | null = null;
    try {
      restored = sessionStorage.getItem(RESTORED_KEY);
      sessionStorage.removeItem(RESTORED_KEY);
    } catch {
      // no storage: nothing to say
    }
    if (restored) notify(`Restored ${restored}: the workspace is as it was then.`, 'success');
  }, [notify]);

  // The desktop app's menu and the OS (files dropped on its icon) reach the window here
  // (docs/PACKAGING.md [N8], [N10]): main has added the files and sends the report a drop gets.
  useEffect(
    () =>
      subscribe('app.command', (event) => {
        if (event.command === 'watch-folder') {
          setWatchOpen(true);
          return;
        }
        if (event.command === 'update') {
          if (event.kind === 'downloaded')
            notify(
              `Org Brain ${event.version} is ready: it is installed when you next quit the app`,
              'success',
            );
          return;
        }
        if (event.command === 'restored') {
          // Every view holds data of the database that was replaced ([N18]): load it all again,
          // and say so once the window is back.
          try {
            sessionStorage.setItem(RESTORED_KEY, event.name);
          } catch {
            // no storage: the window still reloads
          }
          window.location.reload();
          return;
        }
        if (event.command === 'engine') {
          if (event.kind === 'restarting')
            notify(
              `The engine stopped and is starting again; indexing goes on where it was. (${event.reason})`,
            );
          else
            notify(
              `The engine stopped and could not be started again: restart Org Brain. (${event.reason})`,
              'error',
            );
          return;
        }
        setView('files');
        setAddResult({ report: event.report, source: event.source });
        notify(summarizeReport(event.report), event.report.refused.length ? 'info' : 'success');
      }),
    [notify],
  );

  const loadSample = useCallback(async () => {
    try {
      const report = await call('sample.load');
      setView('files');
      setAddResult({ report, source: 'Sample workspace', indexing: true });
    } catch (err) {
      notify(`Could not load the sample workspace: ${errorText(err)}`, 'error');
    }
  }, [notify]);

  const indexAll = useCallback(async () => {
    try {
      const res = await call('files.index', {});
      if (res.queued) notify(`Queued ${plural(res.queued, 'file')} for indexing`, 'success');
      else if ((await call('status.get')).counts.files === 0)
        notify(
          'There are no files yet: drop files here, watch a folder, or load the sample workspace',
          'info',
        );
      else notify('Every file is already indexed', 'success');
    } catch (err) {
      notify(`Could not start indexing: ${errorText(err)}`, 'error');
    }
  }, [notify]);

  const actions = useMemo<AppActions>(
    () => ({
      view,
      go,
      dossier,
      openDossier,
      closeDossier,
      notify,
      openPalette: () => setPaletteOpen(true),
      openWatchDialog: () => setWatchOpen(true),
      showAddResult: setAddResult,
      chatThreadId,
      setChatThreadId,
      treeTarget,
      openTreeNode,
      addFiles,
      loadSample,
      indexAll,
    }),
    [
      view,
      go,
      dossier,
      openDossier,
      closeDossier,
      notify,
      chatThreadId,
      treeTarget,
      openTreeNode,
      addFiles,
      loadSample,
      indexAll,
    ],
  );
  const commands = useMemo(() => buildCommands(actions), [actions]);

  useHotkey('mod+k', (e) => {
    e.preventDefault();
    setPaletteOpen((open) => !open);
  });
  // Whether a layer was open when Esc went down, read before anything handles it: the layer closes
  // itself on the way (Radix, on the document) and is gone from the page by the time the key reaches
  // the window, where Esc would otherwise close the dossier under it too.
  const escInLayer = useRef(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') escInLayer.current = layerOpen();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  useHotkey('escape', () => {
    if (dossier && !escInLayer.current && !layerOpen()) closeDossier();
  });

  return {
    actions,
    commands,
    expanded,
    toggleExpanded: () => setExpanded((x) => !x),
    paletteOpen,
    setPaletteOpen,
    watchOpen,
    setWatchOpen,
    addResult,
    closeAddResult: () => setAddResult(null),
    notices,
    dismissNotice: (id) => setNotices((prev) => prev.filter((n) => n.id !== id)),
    upload,
  };
}
