import { Bot } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { formatDateTime, formatRelative, plural } from '../../lib/format.ts';
import { formatUsd } from './agent-format.ts';

function EmptyAgents() {
  return (
    <div className="empty">
      <Bot size={28} aria-hidden="true" />
      <h2 className="empty__title">No agents yet</h2>
      <p className="empty__text">
        An agent appears here with its first observation. Run one with <code>brain mcp --agent NAME</code>: it
        records what it learns with the <code>brain_observe</code> tool, and its brain is synthesized from
        those. A script can record for it with <code>brain observe --agent NAME</code>.
      </p>
    </div>
  );
}

/** Every agent the member can see: tier, active version, waiting vs threshold, last synthesis, cost. */
export function AgentList({ onOpen }: { onOpen: (name: string) => void }) {
  const list = useCall('agents.list', {}, { refetchOn: ['activity.changed'] });
  const agents = list.data?.agents ?? [];
  return (
    <section className="screen" aria-labelledby="agents-title">
      <header className="screen__header">
        <h1 id="agents-title" className="screen__title">
          Agents
        </h1>
        <span className="screen__meta">
          {list.data ? plural(agents.length, 'agent') : ''} · each learns from its observations and people's
          feedback
        </span>
      </header>
      <div className="screen__body screen__body--scroll">
        {list.error ? (
          <ErrorNotice error={list.error} title="Could not load the agents" onRetry={list.refresh} />
        ) : null}
        {!list.data && !list.error ? <Skeleton lines={4} label="Loading agents" /> : null}
        {list.data && agents.length === 0 ? <EmptyAgents /> : null}
        {agents.length > 0 ? (
          <table className="agents-table" aria-label="Agents">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Tier</th>
                <th scope="col">Active version</th>
                <th scope="col">Waiting</th>
                <th scope="col">Last synthesis</th>
                <th scope="col">Cost this week</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((a) => (
                <tr key={a.name}>
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button agents-table__name"
                      onClick={() => onOpen(a.name)}
                    >
                      {a.name}
                    </button>
                  </th>
                  <td>{a.tier}</td>
                  <td className="num">{a.activeVersion === null ? 'none yet' : `v${a.activeVersion}`}</td>
                  <td
                    className="num"
                    title={`${a.waiting} new observations of ${a.threshold} for the next synthesis`}
                  >
                    {a.waiting} / {a.threshold}
                  </td>
                  <td title={a.lastSynthesizedAt ? formatDateTime(a.lastSynthesizedAt) : undefined}>
                    {a.lastSynthesizedAt ? formatRelative(a.lastSynthesizedAt) : 'never'}
                  </td>
                  <td
                    className="num"
                    title={a.costThisWeekUsd === null ? 'No priced synthesis in the last 7 days' : undefined}
                  >
                    {formatUsd(a.costThisWeekUsd)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </section>
  );
}
