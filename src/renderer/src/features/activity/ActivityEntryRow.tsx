import { ChevronRight, MessageSquare, Search, Syringe, Wrench, Zap } from 'lucide-react';
import type { ActivityEntry } from '#shared/api/types.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import { FeedbackBar } from '../agents/FeedbackBar.tsx';
import './activity.css';

function iconFor(event: string) {
  if (event.includes('search')) return <Search size={14} aria-hidden="true" />;
  if (event.includes('inject')) return <Syringe size={14} aria-hidden="true" />;
  if (event.includes('tool')) return <Wrench size={14} aria-hidden="true" />;
  if (event.includes('chat')) return <MessageSquare size={14} aria-hidden="true" />;
  return <Zap size={14} aria-hidden="true" />;
}

function detailsText(data: unknown): string | null {
  if (data === null || data === undefined) return null;
  if (typeof data === 'object' && Object.keys(data).length === 0) return null;
  try {
    return JSON.stringify(data, null, 2);
  } catch {
    return String(data);
  }
}

/**
 * The run an entry belongs to (an agent's tool call names it): a person's thumbs on the run count
 * toward the brain version it read (docs/AGENTS.md [G2]).
 */
export function runOf(entry: ActivityEntry): string | null {
  const run = entry.data.run;
  return typeof run === 'string' && run ? run : null;
}

/** One timeline entry: what happened, where, and (expandable) the scores and reasons behind it. */
export function ActivityEntryRow({ entry, feedback = false }: { entry: ActivityEntry; feedback?: boolean }) {
  const details = detailsText(entry.data);
  const run = feedback ? runOf(entry) : null;
  const agent = typeof entry.data.agent === 'string' ? entry.data.agent : null;
  return (
    <li className="activity">
      <div className="activity__icon">{iconFor(entry.event)}</div>
      <div className="activity__main">
        <div className="activity__line">
          <span className="activity__summary">{entry.summary}</span>
          <time className="activity__time" dateTime={entry.at} title={formatDateTime(entry.at)}>
            {formatRelative(entry.at)}
          </time>
        </div>
        <div className="activity__meta">
          <span className="kind-tag">{entry.event}</span>
          <span>{entry.surface}</span>
          <span>·</span>
          <span>{entry.user}</span>
        </div>
        {details ? (
          <details className="activity__details">
            <summary>
              <ChevronRight size={13} aria-hidden="true" className="activity__chevron" />
              Details
            </summary>
            <pre className="activity__json">{details}</pre>
          </details>
        ) : null}
        {run ? <FeedbackBar target={{ kind: 'run', run, agent }} /> : null}
      </div>
    </li>
  );
}
