import { AlertCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { AppError } from '#shared/errors.ts';
import './notice.css';

export type ErrorNoticeProps = {
  error: unknown;
  /** What was being done ("Could not load the files"). */
  title?: string;
  /** The next step, when it is not a plain retry. */
  action?: ReactNode;
  /** Shows a "Try again" button that calls this. */
  onRetry?: () => void;
};

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** An error that says what failed and why, and offers the next step. */
export function ErrorNotice({ error, title, action, onRetry }: ErrorNoticeProps) {
  const code = error instanceof AppError ? error.code : null;
  return (
    <div className="notice notice--error" role="alert">
      <AlertCircle size={16} aria-hidden="true" className="notice__icon" />
      <div className="notice__body">
        {title ? <strong className="notice__title">{title}</strong> : null}
        <span>{messageOf(error)}</span>
        {code && code !== 'internal' ? <span className="notice__code">{code}</span> : null}
      </div>
      {action || onRetry ? (
        <div className="notice__action">
          {action}
          {onRetry ? (
            <button type="button" className="button" onClick={onRetry}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
