import { History } from 'lucide-react';
import { useState } from 'react';
import type { ActivityEntry } from '#shared/api/types.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { ActivityEntryRow, runOf } from './ActivityEntryRow.tsx';
import './activity.css';

const PAGE = 100;

/** The timeline of searches, injections and tool calls, newest first, with their scores and reasons. */
export function ActivityScreen() {
  const latest = useCall('activity.list', { limit: PAGE }, { refetchOn: ['activity.changed'] });
  const [older, setOlder] = useState<ActivityEntry[]>([]);
  const [exhausted, setExhausted] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<unknown>(null);

  const recent = latest.data?.entries ?? [];
  const seen = new Set(recent.map((e) => e.id));
  const entries = [...recent, ...older.filter((e) => !seen.has(e.id))];
  // Feedback on a run goes on its newest entry only, not on every tool call of it.
  const runs = new Set<string>();
  const withFeedback = new Set<number>();
  for (const e of entries) {
    const run = runOf(e);
    if (run && !runs.has(run)) {
      runs.add(run);
      withFeedback.add(e.id);
    }
  }

  const loadOlder = async () => {
    const last = entries[entries.length - 1];
    if (!last) return;
    setLoadingMore(true);
    setMoreError(null);
    try {
      const { entries: page } = await call('activity.list', { limit: PAGE, before: last.id });
      setOlder((prev) => [...prev, ...page]);
      if (page.length < PAGE) setExhausted(true);
    } catch (err) {
      setMoreError(err);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="screen" aria-labelledby="activity-title">
      <header className="screen__header">
        <h1 id="activity-title" className="screen__title">
          Activity
        </h1>
        <span className="screen__meta">
          Searches, injections and tool calls, with their scores and reasons
        </span>
      </header>
      <div className="screen__body screen__body--scroll">
        {latest.error ? (
          <ErrorNotice error={latest.error} title="Could not load the activity" onRetry={latest.refresh} />
        ) : null}
        {!latest.data && !latest.error ? <Skeleton lines={6} label="Loading activity" /> : null}
        {latest.data && entries.length === 0 ? (
          <div className="empty empty--small">
            <History size={24} aria-hidden="true" />
            <h2 className="empty__title">Nothing yet</h2>
            <p className="empty__text">
              Searches, chat turns and agent tool calls appear here as they happen.
            </p>
          </div>
        ) : null}
        {entries.length > 0 ? (
          <ol className="timeline" aria-label="Activity timeline">
            {entries.map((e) => (
              <ActivityEntryRow key={e.id} entry={e} feedback={withFeedback.has(e.id)} />
            ))}
          </ol>
        ) : null}
        {moreError ? <ErrorNotice error={moreError} title="Could not load older activity" /> : null}
        {entries.length >= PAGE && !exhausted ? (
          <div className="timeline__more">
            <button type="button" className="button" onClick={() => void loadOlder()} disabled={loadingMore}>
              Load older
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
