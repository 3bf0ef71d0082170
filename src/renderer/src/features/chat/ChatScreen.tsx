import { BookmarkPlus } from 'lucide-react';
import { useState } from 'react';
import { useApp } from '../../app/app-context.ts';
import { useStatus } from '../../app/status-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { useEvent } from '../../hooks/useEvent.ts';
import { call } from '../../lib/api.ts';
import { Composer } from './Composer.tsx';
import { ThreadList } from './ThreadList.tsx';
import { ThreadView } from './ThreadView.tsx';
import './chat.css';

export function ChatScreen() {
  const app = useApp();
  const { status } = useStatus();
  const threadId = app.chatThreadId;
  const threads = useCall('chat.threads', undefined, { refetchOn: ['chat.changed'] });
  const thread = useCall(
    'chat.thread',
    { id: threadId ?? '-' },
    { enabled: threadId !== null, refetchOn: ['chat.changed'] },
  );
  const [pending, setPending] = useState<string | null>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [streaming, setStreaming] = useState<{ turnId: string; text: string } | null>(null);
  useEvent('chat.delta', (d) => {
    if (pending === null || (threadId !== null && d.threadId !== threadId)) return;
    setStreaming((s) =>
      s && s.turnId === d.turnId ? { ...s, text: s.text + d.text } : { turnId: d.turnId, text: d.text },
    );
  });
  const remember = async () => {
    if (!threadId) return;
    try {
      const r = await call('chat.remember', { threadId });
      app.notify(
        r.modelOn
          ? 'Sent to write-back: what is worth keeping will be written or wait in the Inbox'
          : 'Kept for write-back: it runs once a chat model is set in Settings',
        'success',
      );
    } catch (err) {
      app.notify(
        `Could not remember this thread: ${err instanceof Error ? err.message : String(err)}`,
        'error',
      );
    }
  };

  const send = async (message: string) => {
    setPending(message);
    setSendError(null);
    try {
      const res = await call('chat.send', { threadId: threadId ?? undefined, message });
      // Show the answer at once; the refetch that follows brings the stored thread.
      const before = threadId !== null && thread.data?.id === threadId ? thread.data.messages : [];
      thread.setData({ ...res.thread, messages: [...before, res.user, res.answer] });
      if (res.thread.id !== threadId) app.setChatThreadId(res.thread.id);
      else thread.refresh();
      threads.refresh();
    } catch (err) {
      setSendError(err);
    } finally {
      setPending(null);
      setStreaming(null);
    }
  };

  const shown = threadId !== null && thread.data?.id === threadId ? thread.data : null;
  const chatModel = status?.chatModel;

  return (
    <section className="screen screen--chat" aria-labelledby="chat-title">
      <header className="screen__header">
        <h1 id="chat-title" className="screen__title">
          Chat
        </h1>
        <span className="screen__meta">{shown?.title ?? 'New chat'}</span>
        {chatModel ? (
          <span className="screen__meta screen__meta--right" title={chatModel.reason}>
            {chatModel.status === 'on'
              ? `Chat model: ${chatModel.model ?? 'on'}`
              : 'Chat model off: answers are the cited passages'}
          </span>
        ) : null}
        {shown ? (
          <button type="button" className="button button--small" onClick={() => void remember()}>
            <BookmarkPlus size={14} aria-hidden="true" />
            Remember this
          </button>
        ) : null}
      </header>
      <div className="chat">
        <ThreadList
          threads={threads.data?.threads}
          error={threads.error}
          selectedId={threadId}
          onSelect={(id) => {
            setSendError(null);
            app.setChatThreadId(id);
          }}
          onDeleted={(id) => {
            if (id === threadId) app.setChatThreadId(null);
            threads.refresh();
            app.notify('Thread deleted');
          }}
        />
        <div className="chat__main">
          <ThreadView
            thread={shown}
            loading={thread.loading}
            error={threadId !== null ? thread.error : null}
            pending={pending}
            sendError={sendError}
            onOpen={(id, at) => app.openDossier(id, 'citation', at)}
            onRetry={thread.refresh}
            streaming={streaming?.text}
          />
          <Composer onSend={(m) => void send(m)} busy={pending !== null} autoFocusKey={threadId ?? 'new'} />
        </div>
      </div>
    </section>
  );
}
