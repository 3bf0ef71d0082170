import { GitCompare, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { ChangesList } from './ChangesList.tsx';
import { shortCommit, type TreeNode } from './tree-format.ts';

/** The node being read, when it last changed in an earlier commit than the indexed one. */
export type LastChange = { kind: TreeNode['kind']; commit: string; subject: string };

export type TreeChangesProps = {
  tree: string;
  indexedCommit: string | null;
  /** The commit asked about; kept by TreeWorkspace so the answer is there again after opening a node. */
  since: string | null;
  onSince: (since: string) => void;
  lastChange: LastChange | null;
  onSelect: (id: string) => void;
};

/**
 * What changed from an earlier commit to the indexed one (trees.changes, computed from Git on each
 * call): a commit typed, or the last change of the node being read, then the answer.
 */
export function TreeChanges({ tree, indexedCommit, since, onSince, lastChange, onSelect }: TreeChangesProps) {
  const [draft, setDraft] = useState(since ?? '');
  const changes = useCall('trees.changes', since ? { tree, since } : undefined, {
    enabled: since !== null,
    refetchOn: ['trees.changed'],
  });
  const busy = since !== null && changes.loading;

  const ask = (commit: string) => {
    if (commit === since) changes.refresh();
    else onSince(commit);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const commit = draft.trim();
    if (commit.length >= 4) ask(commit);
  };
  const chooseLastChange = (commit: string) => {
    setDraft(commit);
    ask(commit);
  };

  return (
    <div className="changes">
      <p className="trees__note">
        What changed from an earlier commit to the indexed one,{' '}
        <span className="mono">{shortCommit(indexedCommit)}</span>: documents, and the sections and cards
        whose lines changed.
      </p>
      <form className="changes__form" onSubmit={submit}>
        <label className="field changes__field">
          <span className="field__label">Since commit</span>
          <input
            className="input mono"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="A full or short commit"
            autoComplete="off"
            spellCheck={false}
            required
            minLength={4}
            maxLength={64}
          />
        </label>
        <button type="submit" className="button button--primary" disabled={busy || draft.trim().length < 4}>
          {busy ? <Loader2 size={14} className="spin" aria-hidden="true" /> : null}
          {busy ? 'Comparing…' : 'Show changes'}
        </button>
        {lastChange ? (
          <button
            type="button"
            className="button"
            title={`Changed in ${lastChange.commit}${lastChange.subject ? ` · ${lastChange.subject}` : ''}`}
            onClick={() => chooseLastChange(lastChange.commit)}
            disabled={busy}
          >
            {`Since this ${lastChange.kind}'s last change (${shortCommit(lastChange.commit)})`}
          </button>
        ) : null}
      </form>
      {since === null ? (
        <div className="empty empty--small">
          <GitCompare size={22} aria-hidden="true" />
          <p className="empty__text">
            Type a commit, such as the one a citation names, to see what changed since.
          </p>
        </div>
      ) : busy ? (
        <Skeleton lines={5} label="Loading the changes" />
      ) : changes.error ? (
        <ErrorNotice
          error={changes.error}
          title={`Could not compare with ${since}`}
          onRetry={changes.error.code === 'not-found' ? undefined : changes.refresh}
        />
      ) : changes.data ? (
        <ChangesList changes={changes.data} onSelect={onSelect} />
      ) : null}
    </div>
  );
}
