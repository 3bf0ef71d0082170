import type { Outputs } from '#shared/api/contract.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { CallState } from '../../hooks/useCall.ts';
import { plural } from '../../lib/format.ts';
import './settings.css';

/** The workspace's members (admins marked, their teams and devices) and its teams, from the server. */
export function SyncMembers({ members }: { members: CallState<Outputs['sync.members']> }) {
  return (
    <>
      <h3 className="setting-row__label">Members and teams</h3>
      {members.error ? <ErrorNotice error={members.error} title="Could not list the members" /> : null}
      {members.data ? (
        <>
          <ul className="folder-list" aria-label="Members">
            {members.data.members.map((m) => (
              <li key={m.user} className="folder">
                <div className="folder__main">
                  <span className="folder__path ellipsis">
                    {m.user}
                    {m.isAdmin ? ' (admin)' : ''}
                  </span>
                  <span className="folder__meta">
                    {m.teams.length ? `Teams: ${m.teams.join(', ')}` : 'No team'} ·{' '}
                    {plural(m.devices, 'device')}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          {members.data.teams.length ? (
            <ul className="folder-list" aria-label="Teams">
              {members.data.teams.map((t) => (
                <li key={t.id} className="folder">
                  <div className="folder__main">
                    <span className="folder__path ellipsis">{t.id}</span>
                    <span className="folder__meta">
                      {t.members.length ? t.members.join(', ') : 'No members'}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No teams yet.</p>
          )}
        </>
      ) : members.error ? null : (
        <p className="muted">…</p>
      )}
    </>
  );
}
