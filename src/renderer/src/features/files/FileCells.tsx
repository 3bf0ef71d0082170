import { Info } from 'lucide-react';
import type { FileRow } from '#shared/api/types.ts';
import { Tip } from '../../components/Tip.tsx';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import { FileKindIcon } from './FileKindIcon.tsx';
import { StateChip } from './StateChip.tsx';
import type { Phase } from './useFileRows.ts';
import '../../components/skeleton.css';
import './file-table.css';

/** One file's cells: name (with its ingest notes on hover), kind, size, who and when, scope, state. */
export function FileCells({ row, phase }: { row: FileRow; phase: Phase | undefined }) {
  return (
    <>
      <td className="grid__cell col-name" title={row.path ?? row.label}>
        <FileKindIcon kind={row.kind} format={row.format} />
        <span className="ellipsis">{row.label}</span>
        {row.health.length > 0 ? (
          <Tip content={<HealthList notes={row.health} />}>
            <button
              type="button"
              className="health-icon"
              aria-label={`Ingest notes: ${row.health.join('; ')}`}
              tabIndex={-1}
              onClick={(e) => e.stopPropagation()}
            >
              <Info size={13} aria-hidden="true" />
            </button>
          </Tip>
        ) : null}
      </td>
      <td className="grid__cell col-kind">
        <span className="kind-tag">{row.kind}</span>
      </td>
      <td className="grid__cell col-size num">{formatBytes(row.size)}</td>
      <td className="grid__cell col-by ellipsis">{row.addedBy}</td>
      <td className="grid__cell col-at" title={formatDateTime(row.addedAt)}>
        {formatRelative(row.addedAt)}
      </td>
      <td className="grid__cell col-scope">
        <span className="scope-badge">{row.scope}</span>
      </td>
      <td className="grid__cell col-state">
        <StateChip state={row.state} phase={phase} reason={row.reason} />
      </td>
    </>
  );
}

function HealthList({ notes }: { notes: string[] }) {
  return (
    <ul className="tooltip__list">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

/** A row whose page has not arrived yet. */
export function LoadingCells() {
  return (
    <td className="grid__cell grid__cell--loading" aria-label="Loading">
      <span className="skeleton__line skeleton__line--inline" />
    </td>
  );
}
