import { useEffect, useRef } from 'react';
import type { EventName, Events } from '#shared/api/events.ts';
import { subscribe } from '../lib/api.ts';

/** Runs `cb` for every `event`; the latest callback is used without resubscribing. */
export function useEvent<E extends EventName>(event: E, cb: (payload: Events[E]) => void): void {
  const ref = useRef(cb);
  ref.current = cb;
  useEffect(() => subscribe(event, (payload) => ref.current(payload)), [event]);
}
