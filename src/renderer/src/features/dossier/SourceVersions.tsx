import { History } from 'lucide-react';
import type { ItemView } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { useCall } from '../../hooks/useCall.ts';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import './dossier.css';

/**
 * A file's or note's versions, newest first (docs/FACTS.md [K16]): shown once something has replaced
 * the first one; each earlier version opens in the dossier.
 */
export function SourceVersions({ source }: { source: ItemView }) {
  const app = useApp();
  const offered = source.storageKind === 'file' || source.storageKind === 'note';
  const { data } = useCall(
    'items.versions',
    { id: source.id },
    { enabled: offered, refetchOn: ['files.changed', 'activity.changed'] },
  );
  const versions = data?.versions ?? [];
  if (!offered || versions.length < 2) return null;
  return (
    <section className="dossier__versions" aria-label="Versions">
      <h3 className="dossier__versions-title">
        <History size={13} aria-hidden="true" /> Versions
      </h3>
      <ol className="dossier__versions-list">
        {versions.map((v) => (
          <li key={v.id}>
            {v.current ? (
              <span className="dossier__version dossier__version--current">v{v.number} · current</span>
            ) : (
              <button
                type="button"
                className="dossier__version"
                onClick={() => app.openDossier(v.id, 'select')}
                aria-label={`Open version ${v.number}, replaced ${formatDateTime(v.replacedAt ?? v.at)}`}
              >
                v{v.number}
              </button>
            )}
            <span className="muted" title={formatDateTime(v.at)}>
              {' '}
              {v.label} · {formatRelative(v.at)}
              {v.size !== null ? ` · ${formatBytes(v.size)}` : ''}
              {v.replacedAt ? ` · replaced ${formatRelative(v.replacedAt)}` : ''}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
