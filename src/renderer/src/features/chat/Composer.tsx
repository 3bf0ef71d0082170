import { ArrowUp } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import './chat.css';

export type ComposerProps = { onSend: (text: string) => void; busy: boolean; autoFocusKey: string };

/** Enter sends, Shift+Enter adds a line. */
export function Composer({ onSend, busy, autoFocusKey }: ComposerProps) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void autoFocusKey;
    ref.current?.focus();
  }, [autoFocusKey]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const message = text.trim();
    if (!message || busy) return;
    onSend(message);
    setText('');
  };

  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        ref={ref}
        className="composer__input"
        aria-label="Message"
        placeholder="Ask your files…"
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <button
        type="submit"
        className="composer__send"
        aria-label="Send"
        disabled={busy || text.trim() === ''}
      >
        <ArrowUp size={16} aria-hidden="true" />
      </button>
      <p className="composer__hint">
        <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
      </p>
    </form>
  );
}
