import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useStatus } from '../../app/status-context.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { call } from '../../lib/api.ts';
import type { TreeSource } from './tree-format.ts';

export type ConnectDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConnected: (source: TreeSource) => void;
};

const connect = (folder: string, branch: string, scope: string) =>
  call('trees.connect', { folder, ...(branch ? { branch } : {}), ...(scope ? { scope } : {}) });

/**
 * Connect a repository (or a plain folder) by its path on this machine: trees.connect builds the tree
 * before it answers, so the button says so while it waits. The scope is typed (with the scopes the
 * user can see offered); it defaults to org, as the engine does.
 */
export function ConnectDialog({ open, onOpenChange, onConnected }: ConnectDialogProps) {
  const { status } = useStatus();
  const [folder, setFolder] = useState('');
  const [branch, setBranch] = useState('');
  const [scope, setScope] = useState('org');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const scopesId = useId();

  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!folder.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const source = await connect(folder.trim(), branch.trim(), scope.trim());
      setFolder('');
      setBranch('');
      onOpenChange(false);
      onConnected(source);
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
      title="Connect a repository"
      description="Its Markdown documents become a tree to read top-down, and files of the workspace. A plain folder works too, without history."
    >
      <form className="form" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field__label">Folder path</span>
          <input
            className="input mono"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="/home/you/src/handbook"
            autoComplete="off"
            spellCheck={false}
            required
            data-autofocus
          />
          <span className="field__hint">
            A folder on this computer; a Git repository's top level is found from it.
          </span>
        </label>
        <label className="field">
          <span className="field__label">Branch (optional)</span>
          <input
            className="input mono"
            value={branch}
            onChange={(e) => setBranch(e.target.value)}
            placeholder="The current branch"
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <label className="field">
          <span className="field__label">Scope</span>
          <input
            className="input"
            value={scope}
            onChange={(e) => setScope(e.target.value)}
            list={scopesId}
            autoComplete="off"
            spellCheck={false}
          />
          <datalist id={scopesId}>
            {(status?.scopes ?? ['org']).map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <span className="field__hint">Who can read the tree: org, team:&lt;id&gt; or user:&lt;id&gt;.</span>
        </label>
        {error ? (
          <ErrorNotice error={error} title={`Could not connect ${folder.trim() || 'this folder'}`} />
        ) : null}
        <div className="form__actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || !folder.trim()}>
            {busy ? <Loader2 size={14} className="spin" aria-hidden="true" /> : null}
            {busy ? 'Connecting and building…' : 'Connect'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
