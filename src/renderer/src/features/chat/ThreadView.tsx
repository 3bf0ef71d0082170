import { BrainCircuit, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { ChatThread } from '#shared/api/types.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { AssistantTurn } from './AssistantTurn.tsx';
import type { OpenCitation } from './cited.ts';
import './chat.css';
import './turns.css';

export type ThreadViewProps = {
  thread: ChatThread | null;
  loading: boolean;
  error: unknown;
  pending: string | null;
  sendError: unknown;
  onOpen: OpenCitation;
  onRetry: () => void;
  /** The answer streamed so far by the chat model (chat.delta events). */
  streaming?: string;
};

/** The question an answer replies to: the nearest user turn before it. */
function questionBefore(messages: ChatThread['messages'], index: number): string | null {
  for (let i = index - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m.text;
  }
  return null;
}

export function ThreadView({
  thread,
  loading,
  error,
  pending,
  sendError,
  onOpen,
  onRetry,
  streaming,
}: ThreadViewProps) {
  const end = useRef<HTMLDivElement>(null);
  const count = thread?.messages.length ?? 0;
  // A new turn scrolls its question to the top, so the answer reads from its start.
  useEffect(() => {
    void count;
    void pending;
    const box = end.current?.parentElement;
    const questions = box?.querySelectorAll<HTMLElement>('.turn--user');
    const last = questions?.[questions.length - 1];
    if (last) last.scrollIntoView({ block: 'start' });
    else end.current?.scrollIntoView({ block: 'end' });
  }, [count, pending]);

  if (error && !thread) {
    return (
      <div className="thread thread--center">
        <ErrorNotice error={error} title="Could not open this thread" onRetry={onRetry} />
      </div>
    );
  }
  if (loading && !thread && !pending) {
    return (
      <div className="thread">
        <Skeleton lines={5} label="Loading the thread" />
      </div>
    );
  }
  if (!thread && !pending) {
    return (
      <div className="thread thread--center">
        <div className="chat-intro">
          <BrainCircuit size={28} aria-hidden="true" />
          <h2>Ask your files</h2>
          <p>
            Each answer shows the memories it used as numbered citations. Click one to open the passage,
            highlighted, in its file.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="thread" role="log" aria-label="Conversation" aria-live="polite">
      {thread?.messages.map((m, i) =>
        m.role === 'user' ? (
          <article key={m.id} className="turn turn--user" aria-label="Question">
            <p className="turn__text">{m.text}</p>
          </article>
        ) : (
          <AssistantTurn key={m.id} turn={m} onOpen={onOpen} question={questionBefore(thread.messages, i)} />
        ),
      )}
      {pending ? (
        <>
          <article className="turn turn--user turn--pending" aria-label="Question">
            <p className="turn__text">{pending}</p>
          </article>
          {streaming ? (
            <article className="turn turn--assistant turn--streaming" aria-label="Answer being written">
              <div className="turn__avatar" aria-hidden="true">
                <BrainCircuit size={15} />
              </div>
              <div className="turn__content">
                <p className="turn__text">{streaming}</p>
              </div>
            </article>
          ) : (
            <p className="turn__searching">
              <Loader2 size={14} className="spin" aria-hidden="true" /> Searching the brain…
            </p>
          )}
        </>
      ) : null}
      {sendError ? <ErrorNotice error={sendError} title="The question was not answered" /> : null}
      <div ref={end} />
    </div>
  );
}
