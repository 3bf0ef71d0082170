import { AlertTriangle, Info } from 'lucide-react';
import type { ItemView } from '#shared/api/types.ts';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import { SourceVersions } from './SourceVersions.tsx';
import './dossier.css';

/** Origin, format and health of an item: who or what added it, when, from which source and run, and the date the file states. */
export function DossierMeta({ item, file }: { item: ItemView; file: ItemView | null }) {
  const subject = file ?? item;
  return (
    <div className="dossier__meta">
      <dl className="meta-list">
        <div>
          <dt>Added by</dt>
          <dd>{item.origin.actor}</dd>
        </div>
        <div>
          <dt>When</dt>
          <dd title={formatDateTime(item.origin.at)}>{formatRelative(item.origin.at)}</dd>
        </div>
        {subject.dated ? (
          // The date the document states about itself, which search's freshness counts from
          // (rule [R2] in docs/RETRIEVAL.md); the hover says where it was stated.
          <div>
            <dt>Dated</dt>
            <dd title={`${formatDateTime(subject.dated.at)}, from its ${subject.dated.from}`}>
              {formatRelative(subject.dated.at)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Source</dt>
          <dd>{item.origin.source}</dd>
        </div>
        {item.origin.run ? (
          <div>
            <dt>Run</dt>
            <dd className="mono ellipsis">{item.origin.run}</dd>
          </div>
        ) : null}
        <div>
          <dt>Format</dt>
          <dd>
            {subject.format ?? subject.kind}
            {subject.size !== null ? ` · ${formatBytes(subject.size)}` : ''}
          </dd>
        </div>
        <div>
          <dt>Revision</dt>
          <dd title="How many times this record changed (a new version, indexing, a move); Versions below lists the content's versions">
            #{item.version}
            {item.retiredAt ? ` · retired ${formatRelative(item.retiredAt)}` : ''}
          </dd>
        </div>
        {subject.path ? (
          <div className="meta-list__wide">
            <dt>Path</dt>
            <dd className="mono ellipsis" title={subject.path}>
              {subject.path}
            </dd>
          </div>
        ) : null}
      </dl>
      {subject.reason ? (
        <p className="dossier__reason" role="note">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>
            <strong>Failed:</strong> {subject.reason}
          </span>
        </p>
      ) : null}
      {subject.health.length > 0 ? (
        <ul className="dossier__health" aria-label="Ingest notes">
          {subject.health.map((h) => (
            <li key={h}>
              <Info size={13} aria-hidden="true" />
              {h}
            </li>
          ))}
        </ul>
      ) : null}
      <SourceVersions source={subject} />
    </div>
  );
}
