/**
 * The one file whose password form is open, in the table or the tiles (by file id: rows are
 * virtual, their indexes move). Closing it gives the keyboard back to the grid.
 */
import { type RefObject, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import type { FileRow } from '#shared/api/types.ts';
import { needsPassword } from '#shared/password.ts';
import type { UnlockControls } from './FileCells.tsx';

export function useUnlock(
  scrollRef: RefObject<HTMLDivElement | null>,
  onUnlocked: (answer: Outputs['files.unlock']) => void,
): { controls: UnlockControls; onUnlockRow: (row: FileRow) => void } {
  const [openId, setOpenId] = useState<string | null>(null);
  const close = () => {
    setOpenId(null);
    scrollRef.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
  };
  const controls: UnlockControls = {
    openId,
    onOpen: (row) => setOpenId(row.id),
    onDone: (answer) => {
      close();
      onUnlocked(answer);
    },
    onCancel: close,
  };
  // `U` on a row: only a file that waits for its password has a form to open.
  const onUnlockRow = (row: FileRow) => {
    if (row.state === 'failed' && needsPassword(row.reason)) setOpenId(row.id);
  };
  return { controls, onUnlockRow };
}
