import { useCall } from '../../hooks/useCall.ts';

/**
 * How many cards wait for this user (the rail's count): the proposals they may decide and the
 * review cards they see (docs/FACTS.md [K12], [K13]); refreshed when the inbox, the files (a removed
 * source may empty a page) or a compile pass change.
 */
export function useInboxCount(): number {
  const inbox = useCall('inbox.list', undefined, { refetchOn: ['inbox.changed'], throttleMs: 800 });
  const cards = useCall(
    'inbox.cards',
    { limit: 1 },
    { refetchOn: ['inbox.changed', 'files.changed', 'compile.progress'], throttleMs: 800 },
  );
  return (inbox.data?.pending ?? 0) + (cards.data?.pending ?? 0);
}
