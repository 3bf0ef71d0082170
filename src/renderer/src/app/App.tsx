import * as Tooltip from '@radix-ui/react-tooltip';
import { ActivityScreen } from '../features/activity/ActivityScreen.tsx';
import { AgentsScreen } from '../features/agents/AgentsScreen.tsx';
import { ChatScreen } from '../features/chat/ChatScreen.tsx';
import { DossierPane } from '../features/dossier/DossierPane.tsx';
import { AddReportDialog } from '../features/files/AddReportDialog.tsx';
import { FilesScreen } from '../features/files/FilesScreen.tsx';
import { GraphScreen } from '../features/graph/GraphScreen.tsx';
import { InboxScreen } from '../features/inbox/InboxScreen.tsx';
import { CommandPalette } from '../features/palette/CommandPalette.tsx';
import { SettingsScreen } from '../features/settings/SettingsScreen.tsx';
import { WatchFolderDialog } from '../features/settings/WatchFolderDialog.tsx';
import { TreesScreen } from '../features/trees/TreesScreen.tsx';
import { plural } from '../lib/format.ts';
import { AppContext, type View } from './app-context.ts';
import { DropOverlay } from './DropOverlay.tsx';
import { Notices } from './Notices.tsx';
import { Rail } from './Rail.tsx';
import { StatusBar } from './StatusBar.tsx';
import { StatusProvider } from './StatusProvider.tsx';
import { useStatus } from './status-context.ts';
import { TopBar } from './TopBar.tsx';
import { UploadPanel } from './UploadPanel.tsx';
import { useShell } from './use-shell.ts';
import { useWindowDrop } from './use-window-drop.ts';

export function App() {
  return (
    <Tooltip.Provider delayDuration={300}>
      <StatusProvider>
        <Shell />
      </StatusProvider>
    </Tooltip.Provider>
  );
}

function Screen({ view }: { view: View }) {
  return (
    <main className="app__screen">
      {view === 'files' ? <FilesScreen /> : null}
      {view === 'trees' ? <TreesScreen /> : null}
      {view === 'chat' ? <ChatScreen /> : null}
      {view === 'inbox' ? <InboxScreen /> : null}
      {view === 'graph' ? <GraphScreen /> : null}
      {view === 'activity' ? <ActivityScreen /> : null}
      {view === 'agents' ? <AgentsScreen /> : null}
      {view === 'settings' ? <SettingsScreen /> : null}
    </main>
  );
}

/** The frame (rail, top bar, screen, dossier, status bar) and the dialogs every screen shares. */
function Shell() {
  const shell = useShell();
  const { actions, expanded } = shell;
  const { view, go, dossier, notify } = actions;
  const drop = useWindowDrop(actions.addFiles, notify);
  const { settings } = useStatus();
  const addResult = shell.addResult;

  return (
    <AppContext.Provider value={actions}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the whole window is the drop target for files from the OS */}
      <div
        className="app"
        data-dropzone="files"
        onDragEnter={drop.onDragEnter}
        onDragOver={drop.onDragOver}
        onDragLeave={drop.onDragLeave}
        onDrop={drop.onDrop}
      >
        <Rail view={view} onGo={go} />
        <div className="app__main">
          <TopBar onSearch={() => shell.setPaletteOpen(true)} />
          <div className={expanded && dossier ? 'app__content is-expanded' : 'app__content'}>
            <Screen view={view} />
            {dossier ? (
              <DossierPane target={dossier} expanded={expanded} onToggleExpanded={shell.toggleExpanded} />
            ) : null}
          </div>
        </div>
        <StatusBar onOpenSettings={() => go('settings')} />
        {drop.dragging ? <DropOverlay /> : null}
        {shell.upload ? <UploadPanel progress={shell.upload} /> : null}
        <Notices notices={shell.notices} onDismiss={shell.dismissNotice} />
      </div>
      <CommandPalette
        open={shell.paletteOpen}
        onOpenChange={shell.setPaletteOpen}
        commands={shell.commands}
        onOpenItem={actions.openDossier}
        onOpenNode={actions.openTreeNode}
      />
      <WatchFolderDialog
        open={shell.watchOpen}
        onOpenChange={shell.setWatchOpen}
        onWatched={(f) => notify(`Watching ${f.path} (${plural(f.files, 'file')})`, 'success')}
      />
      <AddReportDialog
        report={addResult?.report ?? null}
        source={addResult?.source ?? ''}
        autoIndex={(settings?.indexOnAdd ?? false) || addResult?.indexing === true}
        onClose={shell.closeAddResult}
        onIndexed={(n) =>
          notify(n ? `Queued ${plural(n, 'file')} for indexing` : 'Already indexed', 'success')
        }
      />
    </AppContext.Provider>
  );
}
