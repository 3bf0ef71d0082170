/**
 * Our dialogs and the palette open from state (a button, a key, a menu), not from a Radix Trigger, so
 * on close Radix has nothing to give the focus back to and it falls on the page, where Tab starts over
 * from the top. This keeps what had the focus when the layer opened (call `remember` in
 * onOpenAutoFocus, before Radix moves it) and returns it there in onCloseAutoFocus, unless the
 * caller has put the focus somewhere on purpose meanwhile or that element is gone.
 */
import { useRef } from 'react';

export function useReturnFocus() {
  const returnTo = useRef<HTMLElement | null>(null);
  return {
    remember: () => {
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    restore: (e: Event) => {
      const back = returnTo.current;
      returnTo.current = null;
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if (lost && back?.isConnected) {
        e.preventDefault();
        back.focus();
      }
    },
  };
}
