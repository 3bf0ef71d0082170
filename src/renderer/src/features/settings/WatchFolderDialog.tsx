import { type FormEvent, useEffect, useState } from 'react';
import type { WatchedFolder } from '#shared/api/types.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { call } from '../../lib/api.ts';

export type WatchFolderDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onWatched: (folder: WatchedFolder) => void;
};

/**
 * Watch a folder by its absolute path on this machine. (A browser page cannot pick a folder path, and
 * the desktop app adds what is dropped; a typed path works in both.)
 */
export function WatchFolderDialog({ open, onOpenChange, onWatched }: WatchFolderDialogProps) {
  const [path, setPath] = useState('');
  const [scope, setScope] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (open) {
      setError(null);
      setBusy(false);
    }
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const folder = await call('watch.add', { path: path.trim(), scope: scope.trim() || undefined });
      onWatched(folder);
      setPath('');
      setScope('');
      onOpenChange(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Watch a folder"
      description="Files in the folder are added now and whenever they change. Changed files become new versions; removed files are retired."
      size="medium"
    >
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field__label">Folder path</span>
          <input
            className="input mono"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/you/Documents/team-notes"
            autoComplete="off"
            spellCheck={false}
            required
          />
          <span className="field__hint">An absolute path on this computer.</span>
        </label>
        <label className="field">
          <span className="field__label">Scope (optional)</span>
          <input
            className="input"
            value={scope}
            onChange={(e) => setScope(e.target.value)}
            placeholder="Who can see these files; defaults to you"
            autoComplete="off"
          />
        </label>
        {error ? (
          <ErrorNotice error={error} title={`Could not watch ${path.trim() || 'this folder'}`} />
        ) : null}
        <div className="form__actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || !path.trim()}>
            Watch folder
          </button>
        </div>
      </form>
    </Dialog>
  );
}
