/** Runs a mutation with a busy flag and a readable error, for buttons. */
import { useCallback, useState } from 'react';
import { AppError } from '#shared/errors.ts';

export type ActionState<A extends unknown[], R> = {
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  error: AppError | null;
  clearError: () => void;
};

export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>): ActionState<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        return await fn(...args);
      } catch (err) {
        setError(
          err instanceof AppError
            ? err
            : new AppError('internal', err instanceof Error ? err.message : String(err)),
        );
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  return { run, busy, error, clearError: () => setError(null) };
}
