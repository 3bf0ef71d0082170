/**
 * The review inbox and runs (src/shared/api/ops/inbox.ts), as every surface runs them. Who may see
 * and decide a proposal is src/engine/writeback/inbox.ts's rule ([W3] in docs/PRODUCT.md): a
 * user-scope proposal only by that user, team and org ones by a workspace admin, and nobody sees one
 * in a scope they cannot see. Runs are the member's own, every run for an admin.
 */

import type { EventName, Events } from '#shared/api/events.ts';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
  InboxApprove,
  InboxCards,
  InboxList,
  InboxReject,
  InboxResolveCard,
  RunsList,
  RunsProcess,
} from '#shared/api/ops/inbox.ts';
import { listReviewCards, resolveReviewCard } from '../knowledge/review-inbox.ts';
import { offReason, readModelConfig } from '../llm/config.ts';
import { approveProposal, type Decider, isAdmin, listInbox, rejectProposal } from '../writeback/inbox.ts';
import { runPendingWritebacks } from '../writeback/pass.ts';
import { listRuns } from '../writeback/runs.ts';
import type { CommandContext } from './types.ts';

function decider(ctx: CommandContext): Decider {
  const { engine } = ctx;
  return { db: engine.db, workspaceId: engine.workspaceId, user: engine.user, surface: ctx.surface };
}

async function inboxList(
  ctx: CommandContext,
  input: ParsedInputOf<typeof InboxList>,
): Promise<OutputOf<typeof InboxList>> {
  return listInbox(ctx.engine.db, ctx.engine.user, { all: input.all });
}

export async function inboxApprove(
  ctx: CommandContext,
  input: ParsedInputOf<typeof InboxApprove>,
): Promise<OutputOf<typeof InboxApprove>> {
  return approveProposal(
    decider(ctx),
    input.id,
    { body: input.body, label: input.label },
    input.confirmSensitive === true,
  );
}

async function inboxReject(
  ctx: CommandContext,
  input: ParsedInputOf<typeof InboxReject>,
): Promise<OutputOf<typeof InboxReject>> {
  return rejectProposal(decider(ctx), input.id, input.reason);
}

export async function runsList(
  ctx: CommandContext,
  _input: ParsedInputOf<typeof RunsList>,
): Promise<OutputOf<typeof RunsList>> {
  const { db, user } = ctx.engine;
  return { runs: listRuns(db, user, { all: isAdmin(db, user) }) };
}

/** The passes that wait, here and now; `ctx.signal` gives back the claim of the pass in flight ([J3]). */
async function runsProcess(
  ctx: CommandContext,
  _input: ParsedInputOf<typeof RunsProcess>,
): Promise<OutputOf<typeof RunsProcess>> {
  const results = await runPendingWritebacks(ctx.engine, { signal: ctx.signal });
  return { processed: results.length, modelOn: offReason(readModelConfig(ctx.engine.db)) === null };
}

/** Review cards ([K12], [K13] in docs/FACTS.md): only cards of scopes the member reads. */
async function inboxCards(
  ctx: CommandContext,
  input: ParsedInputOf<typeof InboxCards>,
): Promise<OutputOf<typeof InboxCards>> {
  const { engine } = ctx;
  return listReviewCards(engine.db, { user: engine.user, scopes: engine.scopes() }, input);
}

async function inboxResolveCard(
  ctx: CommandContext,
  input: ParsedInputOf<typeof InboxResolveCard>,
): Promise<OutputOf<typeof InboxResolveCard>> {
  const { engine } = ctx;
  return resolveReviewCard(
    engine.db,
    {
      user: engine.user,
      scopes: engine.scopes(),
      workspaceId: engine.workspaceId,
      origin: ctx.origin,
      surface: ctx.surface,
    },
    input,
  );
}

export const inboxHandlers = {
  'inbox.list': inboxList,
  'inbox.approve': inboxApprove,
  'inbox.reject': inboxReject,
  'runs.list': runsList,
  'runs.process': runsProcess,
  'inbox.cards': inboxCards,
  'inbox.resolveCard': inboxResolveCard,
};

/** An event the app's hosts push to their windows (src/shared/api/events.ts). */
export type AppNotice = { [E in EventName]: { event: E; payload: Events[E] } }[EventName];

/**
 * What the app's windows are told after a decision, so the inbox, the rail's count and the file
 * list refresh (the note an approval writes is a new item). Only the long-lived hosts have windows
 * (src/engine/host/host.ts); the CLI and MCP have nobody to tell.
 */
export const inboxNotices = {
  'inbox.approve': (out: OutputOf<typeof InboxApprove>): AppNotice[] => [
    { event: 'inbox.changed', payload: { at: new Date().toISOString() } },
    { event: 'files.changed', payload: { ids: out.itemId ? [out.itemId] : [] } },
  ],
  'inbox.reject': (_out: OutputOf<typeof InboxReject>): AppNotice[] => [
    { event: 'inbox.changed', payload: { at: new Date().toISOString() } },
  ],
  // A resolved card may have stated facts: the pages (and the files' counts) change too.
  'inbox.resolveCard': (out: OutputOf<typeof InboxResolveCard>): AppNotice[] => [
    { event: 'inbox.changed', payload: { at: new Date().toISOString() } },
    ...(out.entity ? [{ event: 'files.changed' as const, payload: { ids: [out.entity.id] } }] : []),
  ],
};
