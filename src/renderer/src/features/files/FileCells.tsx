import { Info } from 'lucide-react';
import type { Outputs } from '#shared/api/contract.ts';
import type { FileRow } from '#shared/api/types.ts';
import { needsPassword } from '#shared/password.ts';
import { Tip } from '../../components/Tip.tsx';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format.ts';
import { FileKindIcon } from './FileKindIcon.tsx';
import { StateChip } from './StateChip.tsx';
import { NeedsPasswordChip, UnlockCell } from './UnlockCell.tsx';
import type { PageProgress, Phase } from './useFileRows.ts';
import '../../components/skeleton.css';
import './file-table.css';

/** The password form of the grid: which row has it open, and what opening and closing it do. */
export type UnlockControls = {
  openId: string | null;
  onOpen: (row: FileRow) => void;
  onDone: (answer: Outputs['files.unlock']) => void;
  onCancel: () => void;
};

/**
 * One file's cells: name (with its ingest notes on hover), kind, size, who and when, scope, state.
 * A file that needs a password offers "Enter password" as its state; its open form takes the place
 * of every cell but the name (UnlockCell.tsx).
 */
export function FileCells({
  row,
  phase,
  progress,
  unlock,
}: {
  row: FileRow;
  phase: Phase | undefined;
  progress?: PageProgress | undefined;
  unlock: UnlockControls;
}) {
  const locked = row.state === 'failed' && needsPassword(row.reason) && phase === undefined;
  const formOpen = locked && unlock.openId === row.id;
  return (
    <>
      <td className="grid__cell col-name" title={row.path ?? row.label}>
        <FileKindIcon kind={row.kind} format={row.format} />
        <span className="ellipsis">{row.label}</span>
        <HealthNotes notes={row.health} />
      </td>
      {formOpen ? (
        <UnlockCell row={row} onDone={unlock.onDone} onCancel={unlock.onCancel} />
      ) : (
        <OtherCells
          row={row}
          phase={phase}
          progress={progress}
          locked={locked}
          onUnlock={() => unlock.onOpen(row)}
        />
      )}
    </>
  );
}

function OtherCells({
  row,
  phase,
  progress,
  locked,
  onUnlock,
}: {
  row: FileRow;
  phase: Phase | undefined;
  progress: PageProgress | undefined;
  locked: boolean;
  onUnlock: () => void;
}) {
  return (
    <>
      <td className="grid__cell col-kind">
        <span className="kind-tag">{row.kind}</span>
      </td>
      <td className="grid__cell col-size num">{formatBytes(row.size)}</td>
      <td className="grid__cell col-by ellipsis">{row.addedBy}</td>
      <td
        className="grid__cell col-at"
        title={`${formatRelative(row.addedAt)} · ${formatDateTime(row.addedAt)}`}
      >
        <span className="ellipsis">{formatRelative(row.addedAt)}</span>
      </td>
      <td className="grid__cell col-scope">
        <span className="scope-badge">{row.scope}</span>
      </td>
      <td className="grid__cell col-state">
        {locked ? (
          <NeedsPasswordChip row={row} onOpen={onUnlock} />
        ) : (
          <StateChip state={row.state} phase={phase} progress={progress} reason={row.reason} />
        )}
      </td>
    </>
  );
}

/** A file's ingest notes (what extraction noticed), as an icon with the list on hover; none, nothing. */
export function HealthNotes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <Tip
      content={
        <ul className="tooltip__list">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      }
    >
      <button
        type="button"
        className="health-icon"
        aria-label={`Ingest notes: ${notes.join('; ')}`}
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <Info size={13} aria-hidden="true" />
      </button>
    </Tip>
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
