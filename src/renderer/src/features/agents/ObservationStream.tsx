import { Filter, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Inputs, Outputs } from '#shared/api/contract.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';

type Observation = Outputs['observations.list']['observations'][number];

const PAGE = 50;
/** The largest page observations.list gives (OBSERVATION_LIMITS.listMax): where a cited id is looked for. */
const CITED_WINDOW = 200;
const IMPORTANCE = [0, 0.2, 0.3, 0.5, 0.7] as const;

function ObservationRow({ o }: { o: Observation }) {
  const details = o.payload ? JSON.stringify(o.payload) : null;
  return (
    <li className="obs" aria-label={`Observation ${o.id}`}>
      <div className="obs__line">
        <span className="kind-tag">{o.type}</span>
        <span className="obs__importance" title="Importance">
          {o.importance.toFixed(2)}
        </span>
        <span className="obs__text">{o.text ?? details ?? ''}</span>
        <time className="obs__time" dateTime={o.createdAt} title={formatDateTime(o.createdAt)}>
          {formatRelative(o.createdAt)}
        </time>
      </div>
      <div className="obs__meta">
        <span className="mono">{o.id}</span>
        <span>{o.agent ?? `person ${o.user}`}</span>
        {o.run ? <span>run {o.run}</span> : null}
        <span>{o.synthesizedVersion === null ? 'waiting' : `read by v${o.synthesizedVersion}`}</span>
        {o.text && details ? <span className="mono ellipsis">{details}</span> : null}
      </div>
    </li>
  );
}

/** The one observation a brain entry cites, looked for among the newest the member can see. */
function CitedObservation({ id, onClear }: { id: string; onClear: () => void }) {
  const seen = useCall('observations.list', { limit: CITED_WINDOW });
  const found = seen.data?.observations.find((o) => o.id === id);
  return (
    <div className="obs-cited">
      <div className="obs-cited__bar">
        <span>
          Cited observation <span className="mono">{id}</span>
        </span>
        <button type="button" className="button button--small" onClick={onClear}>
          <X size={12} aria-hidden="true" /> Show all
        </button>
      </div>
      {seen.error ? <ErrorNotice error={seen.error} title="Could not load the observation" /> : null}
      {found ? (
        <ol className="obs-list">
          <ObservationRow o={found} />
        </ol>
      ) : null}
      {seen.data && !found ? (
        <p className="muted" role="note">
          {id} is not among the {CITED_WINDOW} newest observations you can see: it may have been pruned after
          its synthesis (docs/AGENTS.md [G5]).
        </p>
      ) : null}
    </div>
  );
}

export type ObservationStreamProps = { agent: string; cited: string | null; onClearCited: () => void };

/** The agent's observations, newest first, filtered by type and minimum importance, paged. */
export function ObservationStream({ agent, cited, onClearCited }: ObservationStreamProps) {
  const [type, setType] = useState('');
  const [min, setMin] = useState(0);
  const [types, setTypes] = useState<string[]>([]);
  const [more, setMore] = useState<Observation[]>([]);
  const [moreError, setMoreError] = useState<unknown>(null);
  const filter: Inputs['observations.list'] = {
    agent,
    limit: PAGE,
    ...(type ? { type } : {}),
    ...(min > 0 ? { min_importance: min } : {}),
  };
  const first = useCall('observations.list', filter);
  const page = first.data?.observations;
  const key = JSON.stringify(filter);

  // Types seen so far stay in the menu when a filter hides them.
  useEffect(() => {
    if (!page) return;
    setTypes((prev) => [...new Set([...prev, ...page.map((o) => o.type)])].sort());
  }, [page]);
  useEffect(() => {
    void key;
    setMore([]);
    setMoreError(null);
  }, [key]);

  const shown = [...(page ?? []), ...more];
  const total = first.data?.total ?? 0;
  const loadMore = async () => {
    setMoreError(null);
    try {
      const next = await call('observations.list', { ...filter, offset: shown.length });
      setMore((prev) => [...prev, ...next.observations]);
    } catch (err) {
      setMoreError(err);
    }
  };

  return (
    <section className="agent-panel" aria-labelledby="stream-title">
      <h2 id="stream-title" className="agent-panel__title">
        Observations
        {first.data ? <span className="agent-panel__meta">{total.toLocaleString()} in all</span> : null}
      </h2>
      {cited ? <CitedObservation id={cited} onClear={onClearCited} /> : null}
      <fieldset className="toolbar obs-filters" aria-label="Filter observations">
        <Filter size={14} aria-hidden="true" />
        <label>
          <span>Type</span>
          <select className="input" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All types</option>
            {(type && !types.includes(type) ? [...types, type] : types).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Minimum importance</span>
          <select className="input" value={String(min)} onChange={(e) => setMin(Number(e.target.value))}>
            {IMPORTANCE.map((n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? 'Any' : n.toFixed(1)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      {first.error ? (
        <ErrorNotice error={first.error} title="Could not load the observations" onRetry={first.refresh} />
      ) : null}
      {!first.data && !first.error ? <Skeleton lines={4} label="Loading observations" /> : null}
      {first.data && shown.length === 0 ? (
        <p className="muted">
          {type || min > 0
            ? 'No observation matches these filters.'
            : `No observations from ${agent} yet: it records them with brain_observe.`}
        </p>
      ) : null}
      {shown.length > 0 ? (
        <ol className="obs-list" aria-label="Observation stream">
          {shown.map((o) => (
            <ObservationRow key={o.id} o={o} />
          ))}
        </ol>
      ) : null}
      {moreError ? <ErrorNotice error={moreError} title="Could not load more observations" /> : null}
      {shown.length < total ? (
        <div className="timeline__more">
          <button type="button" className="button" onClick={() => void loadMore()}>
            Load more ({shown.length} of {total})
          </button>
        </div>
      ) : null}
    </section>
  );
}
