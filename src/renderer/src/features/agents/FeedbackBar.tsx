import { MessageSquarePlus, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useId, useState } from 'react';
import { useApp } from '../../app/app-context.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { type FeedbackType, sendFeedback } from './agents-api.ts';
import './feedback.css';

/** What the feedback is about: a chat answer, or an agent's run in Activity. */
export type FeedbackTarget =
  | { kind: 'answer'; answerId: string; question: string | null }
  | { kind: 'run'; run: string; agent: string | null };

type Mode = 'up' | 'down' | 'tell';
const TYPE: Record<Mode, FeedbackType> = {
  up: 'human_thumbs_up',
  down: 'human_thumbs_down',
  tell: 'human_feedback',
};
const SENT: Record<Mode, string> = {
  up: 'Thanks: a thumbs up goes to every agent’s next synthesis',
  down: 'Thanks: a thumbs down goes to every agent’s next synthesis',
  tell: 'Sent to the agents: every agent’s next synthesis reads it',
};

function payloadOf(target: FeedbackTarget): Record<string, unknown> {
  if (target.kind === 'run') return { run: target.run, ...(target.agent ? { agent: target.agent } : {}) };
  return { answerId: target.answerId, ...(target.question ? { question: target.question } : {}) };
}

/**
 * A person's feedback as an observation every agent's synthesis reads (docs/AGENTS.md [G2]):
 * thumbs up or down with an optional comment, or "Tell the agents…" with a text.
 */
export function FeedbackBar({ target }: { target: FeedbackTarget }) {
  const app = useApp();
  const id = useId();
  const [mode, setMode] = useState<Mode | null>(null);
  const [text, setText] = useState('');
  const [sent, setSent] = useState<Mode | null>(null);
  const action = useAction(sendFeedback);
  const what = target.kind === 'run' ? 'this run' : 'this answer';

  const send = async () => {
    if (!mode) return;
    const comment = text.trim();
    if (mode === 'tell' && !comment) return;
    const done = await action.run({
      type: TYPE[mode],
      payload: payloadOf(target),
      ...(comment ? { text: comment } : {}),
      ...(target.kind === 'run' ? { run: target.run } : {}),
    });
    if (!done) return;
    app.notify(SENT[mode], 'success');
    if (mode !== 'tell') setSent(mode);
    setMode(null);
    setText('');
  };

  const open = (next: Mode) => {
    action.clearError();
    setMode(mode === next ? null : next);
  };

  return (
    <fieldset className="feedback" aria-label={`Feedback on ${what}`}>
      <div className="feedback__buttons">
        <button
          type="button"
          className={sent === 'up' || mode === 'up' ? 'icon-button is-on' : 'icon-button'}
          aria-label="Thumbs up"
          title="Thumbs up"
          aria-pressed={sent === 'up'}
          aria-expanded={mode === 'up'}
          onClick={() => open('up')}
        >
          <ThumbsUp size={14} aria-hidden="true" />
        </button>
        <button
          type="button"
          className={sent === 'down' || mode === 'down' ? 'icon-button is-on' : 'icon-button'}
          aria-label="Thumbs down"
          title="Thumbs down"
          aria-pressed={sent === 'down'}
          aria-expanded={mode === 'down'}
          onClick={() => open('down')}
        >
          <ThumbsDown size={14} aria-hidden="true" />
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          aria-expanded={mode === 'tell'}
          onClick={() => open('tell')}
        >
          <MessageSquarePlus size={14} aria-hidden="true" /> Tell the agents…
        </button>
      </div>
      {mode ? (
        <form
          className="feedback__form"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <label htmlFor={`${id}-text`} className="visually-hidden">
            {mode === 'tell' ? 'Tell the agents' : 'Comment (optional)'}
          </label>
          <textarea
            id={`${id}-text`}
            className="input input--area"
            rows={2}
            maxLength={4000}
            value={text}
            placeholder={
              mode === 'tell'
                ? 'What should the agents know or do differently?'
                : `Why? (optional) — about ${what}`
            }
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                setMode(null);
              }
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
                e.preventDefault();
                void send();
              }
            }}
            // biome-ignore lint/a11y/noAutofocus: the form opens on the person's click to type in it
            autoFocus
          />
          <div className="feedback__actions">
            <button
              type="submit"
              className="button button--primary button--small"
              disabled={action.busy || (mode === 'tell' && !text.trim())}
            >
              {mode === 'tell' ? 'Send to the agents' : mode === 'up' ? 'Send thumbs up' : 'Send thumbs down'}
            </button>
            <button type="button" className="button button--small" onClick={() => setMode(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {action.error ? <ErrorNotice error={action.error} title="Your feedback was not sent" /> : null}
    </fieldset>
  );
}
