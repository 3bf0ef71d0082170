/**
 * A file that needs a password (docs/FORMATS.md [F11]): its state cell offers "Enter password" (a
 * chip that reads "Unlock", to fit the column), and the row then holds an inline form (password
 * field, Unlock, Cancel) in place of its other cells.
 * Enter unlocks, Escape cancels; a wrong password says "Wrong password" in the row. The password
 * lives in the field only and is cleared when files.unlock answers (docs/SECURITY.md [U1]).
 */
import { Loader2, Lock } from 'lucide-react';
import { type KeyboardEvent, type SyntheticEvent, useEffect, useId, useRef, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import type { FileRow } from '#shared/api/types.ts';
import { isWrongPassword } from '#shared/password.ts';
import { Tip } from '../../components/Tip.tsx';
import { call } from '../../lib/api.ts';
import './unlock.css';

/** The state cell's button of a file that needs its password. */
export function NeedsPasswordChip({ row, onOpen }: { row: FileRow; onOpen: () => void }) {
  return (
    <Tip content={`${row.reason ?? 'password-protected'}. A changed file needs its password again.`}>
      <button
        type="button"
        className="chip chip--locked"
        aria-label={`Enter password for ${row.label}`}
        onClick={(e) => {
          e.stopPropagation();
          onOpen();
        }}
      >
        <Lock size={11} aria-hidden="true" />
        Unlock
      </button>
    </Tip>
  );
}

const stop = (e: SyntheticEvent) => e.stopPropagation();

/**
 * The row's inline form (a tile's, in a `div`: FileTiles.tsx); `onDone` once the file is indexed,
 * `onCancel` to close it.
 */
export function UnlockCell({
  row,
  onDone,
  onCancel,
  as: Cell = 'td',
}: {
  row: FileRow;
  onDone: (answer: Outputs['files.unlock']) => void;
  onCancel: () => void;
  as?: 'td' | 'div';
}) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => input.current?.focus(), []);

  const submit = async () => {
    if (busy || password === '') return;
    setBusy(true);
    setError(null);
    try {
      const answer = await call('files.unlock', { id: row.id, password });
      setPassword('');
      onDone(answer);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setPassword('');
      setError(isWrongPassword(message) ? 'Wrong password' : message);
      setBusy(false);
      input.current?.focus();
    }
  };

  // The grid's own keys (arrows, I, Delete, Space) must not act while typing a password.
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === 'Escape' && !busy) {
      e.preventDefault();
      onCancel();
    }
  };

  return (
    <Cell
      className={Cell === 'td' ? 'grid__cell col-unlock' : 'tile__unlock'}
      onClick={stop}
      onKeyDown={onKeyDown}
    >
      <form
        className="unlock"
        aria-label={`Unlock ${row.label}`}
        aria-busy={busy}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Lock size={13} aria-hidden="true" className="unlock__icon" />
        <input
          ref={input}
          type="password"
          className="input unlock__input"
          aria-label={`Password for ${row.label}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          autoComplete="off"
          spellCheck={false}
          value={password}
          readOnly={busy}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button
          type="submit"
          className="button button--primary button--small"
          disabled={busy || password === ''}
        >
          {busy ? <Loader2 size={12} aria-hidden="true" className="spin" /> : null}
          {busy ? 'Unlocking…' : 'Unlock'}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={busy}
          onClick={onCancel}
        >
          Cancel
        </button>
        {error ? (
          <span id={errorId} className="unlock__error" role="alert">
            {error}
          </span>
        ) : (
          <span className="unlock__hint">Used once to index it, never stored</span>
        )}
      </form>
    </Cell>
  );
}
