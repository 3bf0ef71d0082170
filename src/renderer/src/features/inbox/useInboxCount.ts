import { useCall } from '../../hooks/useCall.ts';

/** How many proposals wait for this user's decision (the rail's count); refreshed on `inbox.changed`. */
export function useInboxCount(): number {
  const inbox = useCall('inbox.list', undefined, { refetchOn: ['inbox.changed'], throttleMs: 800 });
  return inbox.data?.pending ?? 0;
}
