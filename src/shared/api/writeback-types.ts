/** The shapes of write-back, the review inbox, runs and the chat model, as the BrainApi returns them. */

export type ProposalView = {
  id: string;
  runId: string;
  kind: string;
  label: string;
  body: string;
  scope: string;
  confidence: number;
  sensitive: boolean;
  sensitiveReason: string | null;
  /** What the deterministic check found (kind and a masked sample). */
  detected: { kind: string; sample: string }[];
  decision: 'skip' | 'review' | 'write';
  /** Why the gate decided so (why it is in review, for inbox cards). */
  reason: string;
  state: 'skipped' | 'pending' | 'written' | 'approved' | 'rejected';
  itemId: string | null;
  edited: boolean;
  decidedBy: string | null;
  decidedAt: string | null;
  rejectReason: string | null;
  createdAt: string;
  /** Whether the reader may approve or reject it (the scoped user, or an admin for team/org). */
  canDecide: boolean;
  run: { id: string; agent: string; status: string; user: string; endedAt: string; excerpt: string } | null;
};

export type InboxView = { pending: number; items: ProposalView[] };

export type RunView = {
  id: string;
  agent: string;
  user: string;
  status: string;
  endedAt: string;
  writeback: 'pending' | 'running' | 'done' | 'skipped';
  /** The pass's outcome: null before it ran. */
  pass: {
    state: 'running' | 'done' | 'failed';
    model: string | null;
    proposed: number;
    written: number;
    reviewed: number;
    skipped: number;
    error: string | null;
    finishedAt: string | null;
  } | null;
  chars: number;
};

export type ChatModelView = {
  baseUrl: string | null;
  model: string | null;
  hasKey: boolean;
  keyStorage: 'file' | 'safeStorage';
  suggestedBaseUrl: string;
  enabled: boolean;
  reason: string | null;
};

export type ConnectionTestView = { ok: boolean; message: string; models: string[] };
