import type { ProposalView } from '#shared/api/writeback-types.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';

/**
 * Before a proposal flagged sensitive is approved as it is: what was found in it and who will read
 * it once approved, the focus on Cancel (use-inbox-review.ts asks for it).
 */
export function ApproveSensitive({
  proposal: p,
  onClose,
  onApprove,
}: {
  proposal: ProposalView | null;
  onClose: () => void;
  onApprove: () => Promise<void>;
}) {
  const found = p?.detected.length
    ? `It holds ${p.detected.map((d) => `${d.kind} (${d.sample})`).join(', ')}. `
    : '';
  const readers = p?.scope.startsWith('user:')
    ? 'only you'
    : `everyone who can read ${p?.scope ?? ''}, and a connected workspace sends it to its server`;
  return (
    <ConfirmDialog
      open={p !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Approve a sensitive memory?"
      message={`${found}Once approved, “${p?.label ?? ''}” is read by ${readers}. Edit it first to leave the secret out.`}
      confirmLabel="Approve as it is"
      onConfirm={onApprove}
    />
  );
}
