/**
 * Our small data hook: calls a command, keeps the last data while refetching, and refetches when one of
 * `refetchOn` events arrives (throttled, so a burst of 10,000 `files.changed` events costs a few calls).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CommandName, Inputs, Outputs } from '#shared/api/contract.ts';
import type { EventName } from '#shared/api/events.ts';
import { AppError } from '#shared/errors.ts';
import { callResult, subscribe } from '../lib/api.ts';

export type CallState<T> = {
  data: T | undefined;
  error: AppError | null;
  loading: boolean;
  refresh: () => void;
  /** Replace the data locally (e.g. with a mutation's answer). */
  setData: (data: T) => void;
};

export type CallOptions = { refetchOn?: readonly EventName[]; enabled?: boolean; throttleMs?: number };

export function useCall<N extends CommandName>(
  name: N,
  input: Inputs[N] | undefined,
  { refetchOn = [], enabled = true, throttleMs = 400 }: CallOptions = {},
): CallState<Outputs[N]> {
  const [data, setData] = useState<Outputs[N] | undefined>(undefined);
  const [error, setError] = useState<AppError | null>(null);
  const [loading, setLoading] = useState(enabled);
  const key = JSON.stringify(input ?? null);
  const seq = useRef(0);

  const run = useCallback(() => {
    const mine = ++seq.current;
    setLoading(true);
    const parsed = JSON.parse(key) as Inputs[N] | null;
    const args = (parsed === null ? [] : [parsed]) as [Inputs[N]];
    void callResult(name, ...args).then((result) => {
      if (mine !== seq.current) return;
      setLoading(false);
      if (result.ok) {
        setData(result.data);
        setError(null);
      } else setError(new AppError(result.error.code, result.error.message));
    });
  }, [name, key]);

  useEffect(() => {
    if (enabled) run();
    return () => {
      seq.current++;
    };
  }, [run, enabled]);

  const events = refetchOn.join(',');
  useEffect(() => {
    if (!enabled || events === '') return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const schedule = () => {
      if (timer) return;
      const wait = Math.max(0, last + throttleMs - Date.now());
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        run();
      }, wait);
    };
    const offs = (events.split(',') as EventName[]).map((e) => subscribe(e, schedule));
    return () => {
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
    };
  }, [events, enabled, run, throttleMs]);

  return { data, error, loading, refresh: run, setData };
}
