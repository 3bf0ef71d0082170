import {
  Activity,
  Bot,
  FolderOpen,
  FolderTree,
  Inbox,
  type LucideIcon,
  MessageSquare,
  Network,
  Settings,
} from 'lucide-react';
import { useInboxCount } from '../features/inbox/useInboxCount.ts';
import type { View } from './app-context.ts';
import { useStatus } from './status-context.ts';
import './rail.css';

const ITEMS: { view: View; label: string; icon: LucideIcon }[] = [
  { view: 'files', label: 'Files', icon: FolderOpen },
  { view: 'trees', label: 'Trees', icon: FolderTree },
  { view: 'chat', label: 'Chat', icon: MessageSquare },
  { view: 'inbox', label: 'Inbox', icon: Inbox },
  { view: 'graph', label: 'Graph', icon: Network },
  { view: 'activity', label: 'Activity', icon: Activity },
  { view: 'agents', label: 'Agents', icon: Bot },
  { view: 'settings', label: 'Settings', icon: Settings },
];

function initials(name: string): string {
  const parts = name.split(/[\s._@-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

/** The left rail: who and where at the top, the screens below. */
export function Rail({ view, onGo }: { view: View; onGo: (view: View) => void }) {
  const { info, status } = useStatus();
  const inboxCount = useInboxCount();
  const user = info?.user ?? status?.user ?? '';
  return (
    <nav className="rail" aria-label="Main">
      <div className="rail__workspace">
        <div className="rail__logo" aria-hidden="true">
          OB
        </div>
        <div className="rail__who">
          <span className="rail__name ellipsis" title={info ? `Workspace ${info.workspace}` : undefined}>
            {info?.name ?? 'Org Brain'}
          </span>
          <span className="rail__user ellipsis" title={user ? `Signed in as ${user} (local)` : undefined}>
            {user ? (
              <>
                <span className="avatar" aria-hidden="true">
                  {initials(user)}
                </span>
                {user}
              </>
            ) : (
              '\u00a0'
            )}
          </span>
        </div>
      </div>
      <ul className="rail__nav">
        {ITEMS.map(({ view: v, label, icon: Icon }) => (
          <li key={v}>
            <button
              type="button"
              className={v === view ? 'rail__item is-current' : 'rail__item'}
              aria-current={v === view ? 'page' : undefined}
              onClick={() => onGo(v)}
            >
              <Icon size={16} aria-hidden="true" className="rail__icon" />
              {label}
              {v === 'files' && status ? (
                <span className="rail__count">{status.counts.files.toLocaleString()}</span>
              ) : null}
              {v === 'inbox' && inboxCount > 0 ? (
                <span className="rail__count" title={`${inboxCount} waiting for review`}>
                  {inboxCount.toLocaleString()}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
