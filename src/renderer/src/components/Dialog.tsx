/**
 * Our dialog: Radix Dialog with our own backdrop. Radix's Overlay is left out on purpose: it locks
 * scrolling by injecting a <style> element, which the app's CSP (style-src 'self') refuses. The app
 * shell never scrolls the body, so nothing is lost; focus trapping and Esc still come from Radix.
 * Closing gives the focus back to what had it (use-return-focus.ts).
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useReturnFocus } from './use-return-focus.ts';
import './dialog.css';

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'small' | 'medium' | 'large';
  role?: 'dialog' | 'alertdialog';
};

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'medium',
  role,
}: DialogProps) {
  const focus = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <div className="dialog-backdrop" aria-hidden="true" />
        <RadixDialog.Content
          className={`dialog dialog--${size}`}
          // An explicit undefined would replace Radix's own role="dialog".
          role={role ?? 'dialog'}
          onOpenAutoFocus={(e) => {
            focus.remember();
            // Focus the control marked data-autofocus, not the close button: in a destructive
            // confirmation (an alertdialog) the safe choice, Cancel; elsewhere the primary action.
            const preferred = (e.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(
              '[data-autofocus]',
            );
            if (preferred) {
              e.preventDefault();
              preferred.focus();
            }
          }}
          onCloseAutoFocus={focus.restore}
        >
          <header className="dialog__header">
            <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="icon-button" aria-label="Close">
              <X size={16} aria-hidden="true" />
            </RadixDialog.Close>
          </header>
          {description ? (
            <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="visually-hidden">{title}</RadixDialog.Description>
          )}
          {children ? <div className="dialog__body">{children}</div> : null}
          {footer ? <footer className="dialog__footer">{footer}</footer> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
