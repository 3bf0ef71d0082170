/**
 * The Files screen's state: the query (search, filters, sort), the grid's selection, and the actions on
 * them (index, remove). A new query starts with nothing selected; the open dossier follows the keyboard
 * cursor. Removed files leave the grid when the host says the files changed (useFileRows.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import { EMPTY_SELECTION, type Selection, selectedIndices, selectionCount } from '../../lib/selection.ts';
import { DEFAULT_QUERY, type FileQuery } from './file-query.ts';
import type { RemoveOutcome, RemoveTarget } from './RemoveDialog.tsx';
import { useFileRows } from './useFileRows.ts';

/** Indexing a selection sends at most this many ids per call (the contract's limit). */
const MAX_INDEX_IDS = 100_000;
/** Removing asks about at most this many files at once (each is one items.remove). */
const MAX_REMOVE = 1000;

export function useFilesScreen() {
  const app = useApp();
  const { updateSettings } = useStatus();
  const [query, setQuery] = useState<FileQuery>(DEFAULT_QUERY);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<RemoveTarget[] | null>(null);
  const rows = useFileRows(query);

  const changeQuery = useCallback((next: FileQuery) => {
    setQuery(next);
    setSelection(EMPTY_SELECTION);
  }, []);
  const clearFilters = () => changeQuery({ ...query, q: '', kinds: [], states: [], scopes: [] });

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

  /** Opens the remove dialog on the selected files (Delete, or the toolbar's Remove…). */
  const removeSelected = async () => {
    const count = selectionCount(selection);
    if (count === 0) return;
    if (count > MAX_REMOVE) {
      app.notify(`Select at most ${MAX_REMOVE.toLocaleString()} files to remove at once.`, 'error');
      return;
    }
    try {
      const picked = await rows.rowsAt(selectedIndices(selection, MAX_REMOVE));
      setRemoving(picked.map((r) => ({ id: r.id, label: r.label, storageKind: 'file' })));
    } catch (err) {
      app.notify(
        `Could not read the selection: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    }
  };

  // The rows under the old selection are gone: nothing stays selected, and a dossier on one closes.
  const onRemoved = (outcome: RemoveOutcome) => {
    const gone = new Set(outcome.done.filter((d) => d.answer.removed).map((d) => d.target.id));
    if (gone.size === 0) return;
    setSelection(EMPTY_SELECTION);
    if (dossier && gone.has(dossier.id)) app.closeDossier();
  };

  /** A file unlocked with its password is indexed now (UnlockCell.tsx): say so, show its new state. */
  const onUnlocked = (answer: Outputs['files.unlock']) => {
    app.notify(`Unlocked ${answer.label}: indexed, ${plural(answer.sections, 'section')}`, 'success');
    rows.reload();
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

  return {
    rows,
    query,
    changeQuery,
    clearFilters,
    selection,
    setSelection,
    busy,
    indexSelected,
    onUnlocked,
    setIndexOnAdd,
    removing,
    removeSelected,
    onRemoved,
    closeRemove: () => setRemoving(null),
  };
}
