/**
 * The review inbox and the runs it comes from: the proposals write-back sent to review, decided by a
 * person ([W2], [W3] in docs/PRODUCT.md), and the runs with their write-back outcome. Declared once
 * (src/shared/api/operation.ts) for the app and the `brain` command. Agents have no tool for them:
 * a proposal in review is not knowledge yet (sensitive ones wait there), and only a person decides.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import type { InboxView, ProposalView, RunView } from '../writeback-types.ts';
import { ENTITY_KINDS, ItemViewSchema } from './graph.ts';

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
      /** Approve a proposal flagged sensitive as it is, after the person confirmed it ([W5] in docs/PRODUCT.md). */
      confirmSensitive: z.boolean().optional(),
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

// ---- review cards (docs/FACTS.md [K12], [K13]) ----

export const REVIEW_CARD_KINDS = ['duplicate', 'empty-page'] as const;
const REVIEW_CARD_ACTIONS = ['same', 'new', 'dismiss'] as const;
export const REVIEW_CARD_LIMITS = { pageDefault: 50, pageMax: 200 } as const;

const DuplicateCardViewSchema = z.object({
  kind: z.literal('duplicate'),
  id: z.string(),
  /** The compiled source; null when it is no longer in the workspace (erased). */
  source: ItemViewSchema.nullable(),
  /** The source's scope: where the facts go. */
  scope: z.string(),
  name: z.string(),
  entityKind: z.enum(ENTITY_KINDS),
  /** Faces it may be: only those the reader can see. */
  candidates: z.array(z.object({ id: z.string(), label: z.string(), scope: z.string(), score: z.number() })),
  facts: z.array(
    z.object({
      statement: z.string(),
      attribute: z.string().nullable(),
      validAt: z.string().nullable(),
      quote: z.string(),
    }),
  ),
  state: z.enum(['pending', 'resolved', 'dismissed']),
  /** Why the card can only be dismissed (its source was removed or changed since), else null. */
  stale: z.string().nullable(),
  canResolve: z.boolean(),
  decision: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});

const EmptyPageCardViewSchema = z.object({
  kind: z.literal('empty-page'),
  /** `empty:<entity>@<time of its latest claim change>`: a page that empties again is another card. */
  id: z.string(),
  entity: ItemViewSchema,
  reason: z.enum(['sources-removed', 'facts-retired', 'sources-changed', 'mixed']),
  /** One line: why the page is empty. */
  why: z.string(),
  /** The removed sources its claims came from (a section counts as its file), at most 5. */
  sources: z.array(z.object({ id: z.string(), label: z.string() })),
  claims: z.number(),
  changedAt: z.string(),
  canResolve: z.boolean(),
});

const ReviewCardViewSchema = z.discriminatedUnion('kind', [DuplicateCardViewSchema, EmptyPageCardViewSchema]);
export type ReviewCardView = z.infer<typeof ReviewCardViewSchema>;
export type DuplicateCardView = z.infer<typeof DuplicateCardViewSchema>;
export type EmptyPageCardView = z.infer<typeof EmptyPageCardViewSchema>;

const ReviewCardsSchema = z.object({
  /** Pending cards the reader sees, per kind (a filter does not change them). */
  counts: z.object({ duplicate: z.number(), emptyPage: z.number() }),
  /** The cards the reader can act on: the inbox's count adds them to the proposals. */
  pending: z.number(),
  /** How many cards the filter matches (this page is `offset` .. `offset + cards.length`). */
  total: z.number(),
  offset: z.number(),
  cards: z.array(ReviewCardViewSchema),
});
export type ReviewCards = z.infer<typeof ReviewCardsSchema>;

export const InboxCards = defineOperation({
  name: 'inbox.cards',
  summary: 'Review cards: Possible duplicates from the compile pass and Empty pages',
  input: z
    .object({
      kind: z.enum(REVIEW_CARD_KINDS).optional(),
      all: z.boolean().optional().describe('also the duplicate cards decided already'),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(REVIEW_CARD_LIMITS.pageMax).optional(),
    })
    .strict(),
  output: ReviewCardsSchema,
  mutates: false,
  notOn: ['agent'],
});

const ResolvedCardSchema = z.object({
  card: z.string(),
  kind: z.enum(REVIEW_CARD_KINDS),
  action: z.enum(REVIEW_CARD_ACTIONS),
  state: z.enum(['resolved', 'dismissed']),
  /** The entity face the facts went on (same, new); null on dismiss. */
  entity: ItemViewSchema.nullable(),
  /** The facts stated, by id. */
  facts: z.array(z.string()),
});
export type ResolvedCard = z.infer<typeof ResolvedCardSchema>;

export const InboxResolveCard = defineOperation({
  name: 'inbox.resolveCard',
  summary: 'Resolve a review card: same as a candidate, a new page, or dismiss',
  input: z
    .object({
      card: id,
      action: z.enum(REVIEW_CARD_ACTIONS),
      entity: id.optional().describe('with `same`: which candidate (default: the first)'),
    })
    .strict(),
  output: ResolvedCardSchema,
  mutates: true,
  notOn: ['agent'],
});

export const INBOX_OPERATIONS = [
  InboxList,
  InboxApprove,
  InboxReject,
  RunsList,
  RunsProcess,
  InboxCards,
  InboxResolveCard,
] as const;

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
