import { Inbox } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { useHotkey } from '../../hooks/useHotkey.ts';
import { call } from '../../lib/api.ts';
import { ProposalCard } from './ProposalCard.tsx';
import { RejectDialog } from './RejectDialog.tsx';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function dialogOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');
}

/** What write-back proposed and the gate sent to review: approve, edit then approve, or reject with a reason. */
export function InboxScreen() {
  const app = useApp();
  const { status } = useStatus();
  const inbox = useCall('inbox.list', undefined, { refetchOn: ['inbox.changed'] });
  const items = inbox.data?.items ?? [];
  const [index, setIndex] = useState(0);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = items[Math.min(index, items.length - 1)];

  useEffect(() => {
    if (index > 0 && index >= items.length) setIndex(Math.max(0, items.length - 1));
  }, [index, items.length]);

  const approve = async (id: string, body?: string) => {
    setBusy(true);
    try {
      const p = await call('inbox.approve', { id, ...(body !== undefined ? { body } : {}) });
      setEditing(null);
      app.notify(
        `Approved${p.edited ? ' with your edit' : ''}: “${p.label}” is now in ${p.scope}`,
        'success',
      );
      inbox.refresh();
    } catch (err) {
      app.notify(`Could not approve it: ${errorText(err)}`, 'error');
    } finally {
      setBusy(false);
    }
  };
  const startEdit = (id: string, body: string) => {
    setEditing(id);
    setDraft(body);
  };

  const keys = !dialogOpen() && editing === null;
  useHotkey('j', () => setIndex((i) => Math.min(items.length - 1, i + 1)), keys);
  useHotkey('k', () => setIndex((i) => Math.max(0, i - 1)), keys);
  useHotkey('a', () => current?.canDecide && void approve(current.id), keys && !busy);
  useHotkey(
    'e',
    (e) => {
      if (!current?.canDecide) return;
      e.preventDefault();
      startEdit(current.id, current.body);
    },
    keys,
  );
  useHotkey('r', () => current?.canDecide && setRejecting(current.id), keys);

  const rejected = items.find((i) => i.id === rejecting);
  const off = status?.chatModel.status === 'off';

  return (
    <section className="screen" aria-labelledby="inbox-title">
      <header className="screen__header">
        <h1 id="inbox-title" className="screen__title">
          Inbox
        </h1>
        <span className="screen__meta">
          {inbox.data ? `${inbox.data.pending} waiting for you` : '…'} · <kbd>A</kbd> approve · <kbd>E</kbd>{' '}
          edit · <kbd>R</kbd> reject · <kbd>J</kbd>/<kbd>K</kbd> move
        </span>
      </header>
      {off ? (
        <p className="notice notice--info" role="note">
          Write-back is off: {status?.chatModel.reason}. Runs wait until a chat model is set in Settings.
        </p>
      ) : null}
      <div className="screen__body screen__body--scroll">
        {inbox.error ? (
          <ErrorNotice error={inbox.error} title="Could not load the inbox" onRetry={inbox.refresh} />
        ) : null}
        {!inbox.data && !inbox.error ? <Skeleton lines={6} label="Loading the inbox" /> : null}
        {inbox.data && items.length === 0 ? (
          <div className="empty">
            <div className="empty__art" aria-hidden="true">
              <Inbox size={28} />
            </div>
            <h2 className="empty__title">Nothing to review</h2>
            <p className="empty__text">
              When an agent ends a run, or you close a chat with “Remember this”, write-back proposes what is
              worth keeping. Confident org knowledge goes straight in; sensitive, uncertain and personal
              proposals wait here.
            </p>
          </div>
        ) : null}
        <ul className="proposals" aria-label="Proposals">
          {items.map((p, i) => (
            <li key={p.id}>
              <ProposalCard
                proposal={p}
                current={p.id === current?.id}
                editing={editing === p.id}
                draft={draft}
                busy={busy}
                onDraft={setDraft}
                onFocus={() => setIndex(i)}
                onApprove={() => void approve(p.id, editing === p.id ? draft : undefined)}
                onEdit={() => startEdit(p.id, p.body)}
                onCancelEdit={() => setEditing(null)}
                onReject={() => setRejecting(p.id)}
              />
            </li>
          ))}
        </ul>
      </div>
      <RejectDialog
        label={rejected ? rejected.label : null}
        onClose={() => setRejecting(null)}
        onReject={async (reason) => {
          if (!rejecting) return;
          await call('inbox.reject', { id: rejecting, reason });
          app.notify('Rejected', 'success');
          inbox.refresh();
        }}
      />
    </section>
  );
}
