/**
 * Our dialog (Radix underneath) is opened from state, without a Radix trigger: by a button, a key
 * (R in the Inbox), a menu. Closing it must give the focus back to where it was, not drop it on the
 * page, where Tab starts over from the top and a keyboard user has lost their place.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog.tsx';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      <button type="button">Elsewhere</button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="A dialog"
        footer={
          <button type="button" data-autofocus onClick={() => setOpen(false)}>
            Cancel
          </button>
        }
      />
    </>
  );
}

describe('Dialog', () => {
  it('gives the focus back to what had it when closed with Esc', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open it' });
    await user.click(opener);
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('gives the focus back when closed by one of its buttons', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open it' });
    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
