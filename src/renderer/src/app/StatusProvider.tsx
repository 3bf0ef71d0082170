import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import { needsPassword } from '#shared/password.ts';
import { useCall } from '../hooks/useCall.ts';
import { useEvent } from '../hooks/useEvent.ts';
import { type ConnectionState, call, onConnection } from '../lib/api.ts';
import { type QueueView, StatusContext, type StatusState } from './status-context.ts';

const IDLE: QueueView = { last: null, done: 0, total: 0, failed: 0, locked: 0 };

/**
 * The batch after this event. The engine's runner counts a batch of files from 0 again, and
 * embeds what its files left without vectors after them, counted apart
 * (src/engine/indexing/index-runner.ts): a file count going back down starts a new batch, and the
 * embedding tail keeps the batch's failures.
 */
function nextQueue(prev: QueueView, e: IndexProgressEvent): QueueView {
  if (e.phase === 'embedding') return { ...prev, last: e, done: e.done, total: e.total };
  const fresh = prev.total === 0 || prev.last?.phase === 'embedding' || e.done < prev.done;
  const failed = e.phase === 'failed' ? 1 : 0;
  const locked = failed && needsPassword(e.reason) ? 1 : 0;
  return {
    last: e,
    done: e.done,
    total: e.total,
    failed: (fresh ? 0 : prev.failed) + failed,
    locked: (fresh ? 0 : prev.locked) + locked,
  };
}

export function StatusProvider({ children }: { children: ReactNode }) {
  const info = useCall('app.info', undefined);
  const status = useCall('status.get', undefined, { refetchOn: ['files.changed'], throttleMs: 1500 });
  const settings = useCall('settings.get', undefined);
  const setSettings = settings.setData;
  const updateSettings = useCallback(
    async (patch: { indexOnAdd?: boolean; ocrLanguages?: string[] }) => {
      const next = await call('settings.set', patch);
      setSettings(next);
      return next;
    },
    [setSettings],
  );
  const [queue, setQueue] = useState<QueueView>(IDLE);
  const [connection, setConnection] = useState<ConnectionState>('open');

  useEvent('status.changed', (next) => status.setData(next));
  useEvent('index.progress', (e: IndexProgressEvent) => {
    setQueue((prev) => nextQueue(prev, e));
  });

  // A finished batch stays on screen for a moment ("Indexed 4 of 4"), then the bar goes quiet.
  useEffect(() => {
    if (queue.total === 0 || queue.done < queue.total) return;
    const t = setTimeout(() => {
      setQueue(IDLE);
      status.refresh();
    }, 2500);
    return () => clearTimeout(t);
  }, [queue, status.refresh]);

  useEffect(() => onConnection(setConnection), []);

  const value = useMemo<StatusState>(
    () => ({
      info: info.data ?? null,
      status: status.data ?? null,
      queue,
      connection,
      refreshStatus: status.refresh,
      settings: settings.data ?? null,
      updateSettings,
    }),
    [info.data, status.data, queue, connection, status.refresh, settings.data, updateSettings],
  );
  return <StatusContext.Provider value={value}>{children}</StatusContext.Provider>;
}
