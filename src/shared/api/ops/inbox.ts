/**
 * The review inbox and the runs it comes from: the proposals write-back sent to review, decided by a
 * person ([W2], [W3] in docs/PRODUCT.md), and the runs with their write-back outcome. Declared once
 * (src/shared/api/operation.ts) for the app and the `brain` command. Agents have no tool for them:
 * a proposal in review is not knowledge yet (sensitive ones wait there), and only a person decides.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import type { InboxView, ProposalView, RunView } from '../writeback-types.ts';

/** An edit may be as long as a proposal is stored (src/engine/writeback/pass.ts keeps 300 and 6000). */
const INBOX_LIMITS = { idChars: 200, labelChars: 300, bodyChars: 6000, reasonChars: 1000 } as const;

const id = z.string().min(1).max(INBOX_LIMITS.idChars);

const ProposalViewSchema = z.object({
  id: z.string(),
  runId: z.string(),
  kind: z.string(),
  label: z.string(),
  body: z.string(),
  scope: z.string(),
  confidence: z.number(),
  sensitive: z.boolean(),
  sensitiveReason: z.string().nullable(),
  detected: z.array(z.object({ kind: z.string(), sample: z.string() })),
  decision: z.enum(['skip', 'review', 'write']),
  reason: z.string(),
  state: z.enum(['skipped', 'pending', 'written', 'approved', 'rejected']),
  itemId: z.string().nullable(),
  edited: z.boolean(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  canDecide: z.boolean(),
  run: z
    .object({
      id: z.string(),
      agent: z.string(),
      status: z.string(),
      user: z.string(),
      endedAt: z.string(),
      excerpt: z.string(),
    })
    .nullable(),
});

const InboxViewSchema = z.object({ pending: z.number(), items: z.array(ProposalViewSchema) });

const RunViewSchema = z.object({
  id: z.string(),
  agent: z.string(),
  user: z.string(),
  status: z.string(),
  endedAt: z.string(),
  writeback: z.enum(['pending', 'running', 'done', 'skipped']),
  pass: z
    .object({
      state: z.enum(['running', 'done', 'failed']),
      model: z.string().nullable(),
      proposed: z.number(),
      written: z.number(),
      reviewed: z.number(),
      skipped: z.number(),
      error: z.string().nullable(),
      finishedAt: z.string().nullable(),
    })
    .nullable(),
  chars: z.number(),
});

export const InboxList = defineOperation({
  name: 'inbox.list',
  summary: 'Proposals waiting for review',
  input: z.object({ all: z.boolean().optional() }).strict(),
  output: InboxViewSchema,
  mutates: false,
  notOn: ['agent'],
});

export const InboxApprove = defineOperation({
  name: 'inbox.approve',
  summary: 'Approve a proposal, optionally edited: a note at its scope, traced to its run',
  input: z
    .object({
      id,
      body: z
        .string()
        .trim()
        .min(1, 'the edited body is empty')
        .max(INBOX_LIMITS.bodyChars, `the edited body is over ${INBOX_LIMITS.bodyChars} characters`)
        .optional(),
      label: z
        .string()
        .trim()
        .min(1, 'the edited label is empty')
        .max(INBOX_LIMITS.labelChars, `the edited label is over ${INBOX_LIMITS.labelChars} characters`)
        .optional(),
    })
    .strict(),
  output: ProposalViewSchema,
  mutates: true,
  notOn: ['agent'],
});

export const InboxReject = defineOperation({
  name: 'inbox.reject',
  summary: 'Reject a proposal, with a reason',
  input: z
    .object({
      id,
      reason: z
        .string()
        .trim()
        .min(1, 'say why the proposal is rejected')
        .max(INBOX_LIMITS.reasonChars, `the reason is over ${INBOX_LIMITS.reasonChars} characters`),
    })
    .strict(),
  output: ProposalViewSchema,
  mutates: true,
  notOn: ['agent'],
});

/** An object, not a bare list, as every operation's answer is (an MCP tool's structured content must be). */
export const RunsList = defineOperation({
  name: 'runs.list',
  summary: 'Runs with their write-back outcome',
  input: z.object({}).strict(),
  output: z.object({ runs: z.array(RunViewSchema) }),
  mutates: false,
  notOn: ['agent'],
});

/**
 * The write-back passes that wait (pending runs, and runs whose lease ran out), run now, in this
 * process ([J5] in docs/WORKSPACE.md): the command line's `brain runs --process`. The app and
 * `brain serve` run them in their own loop, so only the command line offers it.
 */
export const RunsProcess = defineOperation({
  name: 'runs.process',
  summary: 'Run the write-back passes that wait or were left by a stopped process, now',
  input: z.object({}).strict(),
  output: z.object({
    /** Passes run by this call (none without a chat model). */
    processed: z.number(),
    modelOn: z.boolean(),
  }),
  mutates: true,
  notOn: ['agent', 'app'],
});

export const INBOX_OPERATIONS = [InboxList, InboxApprove, InboxReject, RunsList, RunsProcess] as const;

/** The hand-written types stay exactly what the schemas check, both ways. */
type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type InboxSchemaChecks = [
  Assignable<ProposalView, z.infer<typeof ProposalViewSchema>>,
  Assignable<z.infer<typeof ProposalViewSchema>, ProposalView>,
  Assignable<InboxView, z.infer<typeof InboxViewSchema>>,
  Assignable<z.infer<typeof InboxViewSchema>, InboxView>,
  Assignable<RunView, z.infer<typeof RunViewSchema>>,
  Assignable<z.infer<typeof RunViewSchema>, RunView>,
];
