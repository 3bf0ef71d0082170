import { isInactive } from './tree-format.ts';

/** A document's status from its front matter; a warning tone when it no longer holds (superseded…). */
export function StatusBadge({
  status,
  supersededBy,
}: {
  status: string | null;
  supersededBy: string | null;
}) {
  if (!status) return null;
  const label = status.charAt(0).toUpperCase() + status.slice(1);
  return (
    <span
      className={isInactive(status) ? 'tree-badge tree-badge--inactive' : 'tree-badge'}
      title={supersededBy ? `${label} by ${supersededBy}` : undefined}
    >
      {label}
    </span>
  );
}
