/**
 * Reviewing the inbox from the keyboard: J/K move the current proposal, A approves it, E edits it
 * (Ctrl/Cmd+Enter approves the edit, Esc leaves it), R asks for a reason to reject it. The letters are
 * off while a dialog or menu is open and while editing.
 */
import { useEffect, useState } from 'react';
import { useApp } from '../../app/app-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { useHotkey } from '../../hooks/useHotkey.ts';
import { call } from '../../lib/api.ts';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function dialogOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]');
}

export function useInboxReview() {
  const app = useApp();
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
  const reject = async (reason: string) => {
    if (!rejecting) return;
    await call('inbox.reject', { id: rejecting, reason });
    app.notify('Rejected', 'success');
    inbox.refresh();
  };

  const keys = !dialogOpen() && editing === null;
  useHotkey('j', () => setIndex((i) => Math.min(items.length - 1, i + 1)), keys);
  useHotkey('k', () => setIndex((i) => Math.max(0, i - 1)), keys);
  useHotkey('a', () => current?.canDecide && void approve(current.id), keys && !busy);
  // E and R move the focus into a text box: the key press must not type its letter there.
  useHotkey(
    'e',
    (e) => {
      if (!current?.canDecide) return;
      e.preventDefault();
      startEdit(current.id, current.body);
    },
    keys,
  );
  useHotkey(
    'r',
    (e) => {
      if (!current?.canDecide) return;
      e.preventDefault();
      setRejecting(current.id);
    },
    keys,
  );

  return {
    inbox,
    items,
    current,
    setIndex,
    editing,
    setEditing,
    draft,
    setDraft,
    busy,
    approve,
    startEdit,
    rejecting: items.find((i) => i.id === rejecting) ?? null,
    setRejecting,
    reject,
  };
}
