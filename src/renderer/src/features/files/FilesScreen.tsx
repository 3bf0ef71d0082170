import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { call } from '../../lib/api.ts';
import { filesFromInput } from '../../lib/drop.ts';
import { plural } from '../../lib/format.ts';
import { EMPTY_SELECTION, type Selection, selectedIndices, selectionCount } from '../../lib/selection.ts';
import { EmptyFiles } from './EmptyFiles.tsx';
import { FilesToolbar } from './FilesToolbar.tsx';
import { FileTable } from './FileTable.tsx';
import { DEFAULT_QUERY, type FileQuery, hasFilters, nextSort } from './file-query.ts';
import { useFileRows } from './useFileRows.ts';

/** Indexing a selection sends at most this many ids per call (the contract's limit). */
const MAX_INDEX_IDS = 100_000;

export function FilesScreen() {
  const app = useApp();
  const { status, settings, updateSettings } = useStatus();
  const [query, setQuery] = useState<FileQuery>(DEFAULT_QUERY);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [busy, setBusy] = useState(false);
  const rows = useFileRows(query);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const changeQuery = useCallback((next: FileQuery) => {
    setQuery(next);
    setSelection(EMPTY_SELECTION);
  }, []);

  // The dossier follows the keyboard cursor while it is open from the grid.
  const { dossier, openDossier } = app;
  const focusRow = selection.focus === null ? undefined : rows.getRow(selection.focus);
  useEffect(() => {
    if (focusRow && dossier?.from === 'select' && dossier.id !== focusRow.id)
      openDossier(focusRow.id, 'select');
  }, [focusRow, dossier, openDossier]);

  const indexSelected = async () => {
    const count = selectionCount(selection);
    if (count === 0) return;
    setBusy(true);
    try {
      const ids = await rows.idsAt(selectedIndices(selection, MAX_INDEX_IDS));
      const res = await call('files.index', { ids });
      app.notify(
        res.queued ? `Queued ${plural(res.queued, 'file')} for indexing` : 'Already indexed',
        'success',
      );
    } catch (err) {
      app.notify(
        `Could not index the selection: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    } finally {
      setBusy(false);
    }
  };

  const setIndexOnAdd = async (on: boolean) => {
    try {
      await updateSettings({ indexOnAdd: on });
      app.notify(on ? 'New files will be indexed as they are added' : 'New files wait until you index them');
    } catch (err) {
      app.notify(
        `Could not change the setting: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    }
  };

  const onPicked = (list: FileList | null, source: string) => {
    const files = filesFromInput(list);
    if (files.length) void app.addFiles(files, source);
  };

  const total = rows.total;
  const emptyWorkspace = total === 0 && !hasFilters(query);
  const openId = dossier?.id ?? null;

  return (
    <section className="screen" aria-labelledby="files-title">
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
      <FilesToolbar
        query={query}
        onQuery={changeQuery}
        facets={rows.facets}
        selectedCount={selectionCount(selection)}
        onIndexSelected={() => void indexSelected()}
        onIndexAll={() => void app.indexAll()}
        indexOnAdd={settings?.indexOnAdd ?? null}
        onIndexOnAdd={(on) => void setIndexOnAdd(on)}
        onPickFiles={() => fileInput.current?.click()}
        onPickFolder={() => folderInput.current?.click()}
        onWatch={app.openWatchDialog}
        busy={busy}
      />
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Choose files to add"
        onChange={(e) => {
          onPicked(e.target.files, 'Chosen files');
          e.target.value = '';
        }}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        aria-label="Choose a folder to add"
        onChange={(e) => {
          onPicked(e.target.files, 'Chosen folder');
          e.target.value = '';
        }}
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
            busy={busy}
          />
        ) : total === 0 ? (
          <div className="empty empty--small">
            <h2 className="empty__title">No files match</h2>
            <p className="empty__text">Try another name, or clear the filters.</p>
            <button
              type="button"
              className="button"
              onClick={() => changeQuery({ ...query, q: '', kinds: [], states: [], scopes: [] })}
            >
              Clear filters
            </button>
          </div>
        ) : (
          <FileTable
            rows={rows}
            query={query}
            onSort={(key) => changeQuery(nextSort(query, key))}
            selection={selection}
            onSelection={setSelection}
            onOpen={(row: FileRow) => app.openDossier(row.id, 'select')}
            onIndexSelection={() => void indexSelected()}
            openId={openId}
          />
        )}
      </div>
    </section>
  );
}
