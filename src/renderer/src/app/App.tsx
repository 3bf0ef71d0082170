import * as Tooltip from '@radix-ui/react-tooltip';
import { type DragEvent, useCallback, useMemo, useRef, useState } from 'react';
import { ActivityScreen } from '../features/activity/ActivityScreen.tsx';
import { ChatScreen } from '../features/chat/ChatScreen.tsx';
import { DossierPane } from '../features/dossier/DossierPane.tsx';
import { AddReportDialog } from '../features/files/AddReportDialog.tsx';
import { FilesScreen } from '../features/files/FilesScreen.tsx';
import { GraphScreen } from '../features/graph/GraphScreen.tsx';
import { InboxScreen } from '../features/inbox/InboxScreen.tsx';
import { CommandPalette } from '../features/palette/CommandPalette.tsx';
import { SettingsScreen } from '../features/settings/SettingsScreen.tsx';
import { WatchFolderDialog } from '../features/settings/WatchFolderDialog.tsx';
import { useHotkey } from '../hooks/useHotkey.ts';
import { addDroppedFiles, call, type DroppedFile } from '../lib/api.ts';
import { dragHasFiles, resolveDropItems, takeDropItems } from '../lib/drop.ts';
import { plural } from '../lib/format.ts';
import { type QueueProgress, summarizeReport } from '../lib/upload-queue.ts';
import {
  type AddResult,
  type AppActions,
  AppContext,
  type DossierTarget,
  type Notice,
  type View,
} from './app-context.ts';
import { buildCommands } from './commands.ts';
import { DropOverlay } from './DropOverlay.tsx';
import { Notices } from './Notices.tsx';
import { Rail } from './Rail.tsx';
import { StatusBar } from './StatusBar.tsx';
import { StatusProvider } from './StatusProvider.tsx';
import { useStatus } from './status-context.ts';
import { TopBar } from './TopBar.tsx';
import { UploadPanel } from './UploadPanel.tsx';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Whether a Radix layer (dialog, menu, tooltip) is open and should get Esc first. */
function layerOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');
}

export function App() {
  return (
    <Tooltip.Provider delayDuration={300}>
      <StatusProvider>
        <Shell />
      </StatusProvider>
    </Tooltip.Provider>
  );
}

function Shell() {
  const [view, setView] = useState<View>('files');
  const [dossier, setDossier] = useState<DossierTarget | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [watchOpen, setWatchOpen] = useState(false);
  const [addResult, setAddResult] = useState<AddResult | null>(null);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [upload, setUpload] = useState<QueueProgress | null>(null);
  const [dragging, setDragging] = useState(false);
  const [chatThreadId, setChatThreadId] = useState<string | null>(null);
  const dragDepth = useRef(0);
  const seq = useRef(0);
  const { settings } = useStatus();

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
      notify(
        res.queued ? `Queued ${plural(res.queued, 'file')} for indexing` : 'Every file is already indexed',
        'success',
      );
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
      addFiles,
      loadSample,
      indexAll,
    }),
    [view, go, dossier, openDossier, closeDossier, notify, chatThreadId, addFiles, loadSample, indexAll],
  );
  const commands = useMemo(() => buildCommands(actions), [actions]);

  useHotkey('mod+k', (e) => {
    e.preventDefault();
    setPaletteOpen((open) => !open);
  });
  useHotkey('escape', () => {
    if (dossier && !layerOpen()) closeDossier();
  });

  const onDragEnter = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    dragDepth.current++;
    setDragging(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    dragDepth.current = 0;
    setDragging(false);
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    const pending = takeDropItems(e.dataTransfer);
    void resolveDropItems(pending)
      .then((files) => (files.length ? addFiles(files, 'Dropped files') : notify('The drop held no files')))
      .catch((err: unknown) => notify(`Could not read the dropped files: ${errorText(err)}`, 'error'));
  };

  return (
    <AppContext.Provider value={actions}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the whole window is the drop target for files from the OS */}
      <div
        className="app"
        data-dropzone="files"
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <Rail view={view} onGo={go} />
        <div className="app__main">
          <TopBar onSearch={() => setPaletteOpen(true)} />
          <div className={expanded && dossier ? 'app__content is-expanded' : 'app__content'}>
            <main className="app__screen">
              {view === 'files' ? <FilesScreen /> : null}
              {view === 'chat' ? <ChatScreen /> : null}
              {view === 'inbox' ? <InboxScreen /> : null}
              {view === 'graph' ? <GraphScreen /> : null}
              {view === 'activity' ? <ActivityScreen /> : null}
              {view === 'settings' ? <SettingsScreen /> : null}
            </main>
            {dossier ? (
              <DossierPane
                target={dossier}
                expanded={expanded}
                onToggleExpanded={() => setExpanded((x) => !x)}
              />
            ) : null}
          </div>
        </div>
        <StatusBar onOpenSettings={() => setView('settings')} />
        {dragging ? <DropOverlay /> : null}
        {upload ? <UploadPanel progress={upload} /> : null}
        <Notices
          notices={notices}
          onDismiss={(id) => setNotices((prev) => prev.filter((n) => n.id !== id))}
        />
      </div>
      <CommandPalette
        open={paletteOpen}
        onOpenChange={setPaletteOpen}
        commands={commands}
        onOpenItem={openDossier}
      />
      <WatchFolderDialog
        open={watchOpen}
        onOpenChange={setWatchOpen}
        onWatched={(f) => notify(`Watching ${f.path} (${plural(f.files, 'file')})`, 'success')}
      />
      <AddReportDialog
        report={addResult?.report ?? null}
        source={addResult?.source ?? ''}
        autoIndex={(settings?.indexOnAdd ?? false) || addResult?.indexing === true}
        onClose={() => setAddResult(null)}
        onIndexed={(n) =>
          notify(n ? `Queued ${plural(n, 'file')} for indexing` : 'Already indexed', 'success')
        }
      />
    </AppContext.Provider>
  );
}
