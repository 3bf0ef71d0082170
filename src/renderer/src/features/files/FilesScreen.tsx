import { useEffect, useRef, useState } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { plural } from '../../lib/format.ts';
import { selectionCount } from '../../lib/selection.ts';
import { EmptyFiles } from './EmptyFiles.tsx';
import { FilePickers } from './FilePickers.tsx';
import { FilesToolbar, type FilesView } from './FilesToolbar.tsx';
import { FileTable } from './FileTable.tsx';
import { FileTiles } from './FileTiles.tsx';
import { type FileQuery, hasFilters, nextSort } from './file-query.ts';
import { RemoveDialog } from './RemoveDialog.tsx';
import { useFilesScreen } from './use-files-screen.ts';
import './files.css';

/** Every file the user can see, in a virtual grid: find, filter, sort, select, index, remove, open. */
export function FilesScreen() {
  const app = useApp();
  const { settings } = useStatus();
  const files = useFilesScreen();
  const { rows, query, changeQuery, selection } = files;
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLElement>(null);
  const [view, setView] = useFilesView();
  // The remove dialog, opened by Delete or from the toolbar, gives focus back to the grid once closed.
  const removeOpen = files.removing !== null;
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!removeOpen && wasOpen.current) grid.current?.focus();
    wasOpen.current = removeOpen;
  }, [removeOpen]);
  const removeSelected = () => void files.removeSelected();

  const FileView = view === 'tiles' ? FileTiles : FileTable;
  const total = rows.total;
  const emptyWorkspace = total === 0 && !hasFilters(query);

  return (
    <section className="screen" aria-labelledby="files-title">
      <FilesHeader total={total} query={query} />
      <FilesToolbar
        query={query}
        onQuery={changeQuery}
        facets={rows.facets}
        selectedCount={selectionCount(selection)}
        onIndexSelected={() => void files.indexSelected()}
        onRemoveSelected={removeSelected}
        onIndexAll={() => void app.indexAll()}
        indexOnAdd={settings?.indexOnAdd ?? null}
        onIndexOnAdd={(on) => void files.setIndexOnAdd(on)}
        onPickFiles={() => fileInput.current?.click()}
        onPickFolder={() => folderInput.current?.click()}
        onWatch={app.openWatchDialog}
        busy={files.busy}
        view={view}
        onView={setView}
      />
      <FilePickers
        fileInput={fileInput}
        folderInput={folderInput}
        onPicked={(picked, source) => void app.addFiles(picked, source)}
      />
      {rows.error ? (
        <ErrorNotice error={rows.error} title="Could not load the file list" onRetry={rows.retry} />
      ) : null}
      <div className="screen__body">
        {total === null && !rows.error ? (
          <div className="grid-skeleton">
            <Skeleton lines={8} label="Loading files" />
          </div>
        ) : emptyWorkspace ? (
          <EmptyFiles
            onLoadSample={() => void app.loadSample()}
            onWatch={app.openWatchDialog}
            onPickFiles={() => fileInput.current?.click()}
            busy={files.busy}
          />
        ) : total === 0 ? (
          <div className="empty empty--small">
            <h2 className="empty__title">No files match</h2>
            <p className="empty__text">Try another name, or clear the filters.</p>
            <button type="button" className="button" onClick={files.clearFilters}>
              Clear filters
            </button>
          </div>
        ) : (
          <FileView
            rows={rows}
            query={query}
            onSort={(key) => changeQuery(nextSort(query, key))}
            selection={selection}
            onSelection={files.setSelection}
            onOpen={(row: FileRow) => app.openDossier(row.id, 'select')}
            onIndexSelection={() => void files.indexSelected()}
            onRemoveSelection={removeSelected}
            onUnlocked={files.onUnlocked}
            openId={app.dossier?.id ?? null}
            gridRef={grid}
          />
        )}
      </div>
      {files.removing ? (
        <RemoveDialog targets={files.removing} onRemoved={files.onRemoved} onClose={files.closeRemove} />
      ) : null}
    </section>
  );
}

/** The files as a table or as tiles, as the toolbar's switch says, remembered for the next start. */
const VIEW_KEY = 'orgbrain.files.view';

function useFilesView(): [FilesView, (view: FilesView) => void] {
  const [view, setView] = useState<FilesView>(() => {
    try {
      return localStorage.getItem(VIEW_KEY) === 'tiles' ? 'tiles' : 'table';
    } catch {
      return 'table';
    }
  });
  const choose = (next: FilesView) => {
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // A window without storage keeps the choice until it closes.
    }
  };
  return [view, choose];
}

/** The title, and how many files (or matches) with how many indexed, announced as it changes. */
function FilesHeader({ total, query }: { total: number | null; query: FileQuery }) {
  const { status } = useStatus();
  return (
    <header className="screen__header">
      <h1 id="files-title" className="screen__title">
        Files
      </h1>
      <span className="screen__meta" aria-live="polite">
        {total === null
          ? ''
          : hasFilters(query)
            ? `${plural(total, 'match', 'matches')}`
            : plural(total, 'file')}
        {status && status.counts.files > 0
          ? ` · ${status.counts.indexed.toLocaleString()} indexed · ${status.counts.notIndexed.toLocaleString()} not indexed${status.counts.failed ? ` · ${status.counts.failed} failed` : ''}`
          : ''}
      </span>
    </header>
  );
}
