import { MessageSquarePlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ChatThreadSummary } from '#shared/api/types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { call } from '../../lib/api.ts';
import { formatRelative } from '../../lib/format.ts';
import './chat.css';

export type ThreadListProps = {
  threads: ChatThreadSummary[] | undefined;
  error: unknown;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  onDeleted: (id: string) => void;
};

export function ThreadList({ threads, error, selectedId, onSelect, onDeleted }: ThreadListProps) {
  const [toDelete, setToDelete] = useState<ChatThreadSummary | null>(null);
  return (
    <nav className="threads" aria-label="Chat threads">
      <div className="threads__head">
        <h2 className="threads__title">Threads</h2>
        <button type="button" className="button button--small" onClick={() => onSelect(null)}>
          <MessageSquarePlus size={14} aria-hidden="true" />
          New chat
        </button>
      </div>
      {error ? <ErrorNotice error={error} title="Could not load threads" /> : null}
      {!threads && !error ? <Skeleton lines={4} label="Loading threads" /> : null}
      {threads && threads.length === 0 ? (
        <p className="threads__empty">No threads yet. Ask something to start one.</p>
      ) : null}
      <ul className="threads__list">
        {threads?.map((t) => (
          <li key={t.id} className={t.id === selectedId ? 'thread-item is-current' : 'thread-item'}>
            <button
              type="button"
              className="thread-item__open"
              aria-current={t.id === selectedId ? 'page' : undefined}
              onClick={() => onSelect(t.id)}
            >
              <span className="thread-item__title ellipsis">{t.title || 'Untitled'}</span>
              <span className="thread-item__meta">
                {formatRelative(t.updatedAt)} · {t.turns} {t.turns === 1 ? 'turn' : 'turns'}
              </span>
            </button>
            <button
              type="button"
              className="icon-button thread-item__delete"
              aria-label={`Delete thread ${t.title || 'Untitled'}`}
              onClick={() => setToDelete(t)}
            >
              <Trash2 size={14} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title="Delete this thread?"
        message={`“${toDelete?.title || 'Untitled'}” and its ${toDelete?.turns ?? 0} turns will be deleted from this computer. This cannot be undone.`}
        confirmLabel="Delete thread"
        destructive
        onConfirm={async () => {
          if (!toDelete) return;
          await call('chat.delete', { id: toDelete.id });
          onDeleted(toDelete.id);
        }}
      />
    </nav>
  );
}
