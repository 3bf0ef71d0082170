/**
 * `brain inbox`: proposals waiting for review; approve (optionally edited) or reject with a reason.
 * The contract's inbox.list, inbox.approve and inbox.reject (src/shared/api/ops/inbox.ts): their
 * limits and who may decide are the engine command's, as on every surface. The review cards
 * (Possible duplicates, Empty pages: docs/FACTS.md [K12], [K13]) follow the proposals in the
 * listing (with `--json`, inbox.list's fields and the first page of cards as `cards`); `brain inbox
 * cards` lists them alone (inbox.cards) and `brain inbox resolve <card> same [entity] | new |
 * dismiss` decides one (inbox.resolveCard).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import {
  InboxApprove,
  InboxCards,
  InboxList,
  InboxReject,
  InboxResolveCard,
  REVIEW_CARD_KINDS,
  type ReviewCardView,
} from '#shared/api/ops/inbox.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function show(p: ProposalView): void {
  print(`${p.id}  [${p.state}] ${p.label}  (${p.kind}, ${p.scope}, confidence ${p.confidence.toFixed(2)})`);
  print(`   why: ${p.reason}${p.canDecide ? '' : ' — you cannot decide this one'}`);
  print(`   ${p.body.replace(/\s+/g, ' ').slice(0, 300)}`);
  if (p.run) print(`   from run ${p.run.id} (${p.run.agent}, ${p.run.status})`);
}

function showCard(c: ReviewCardView): void {
  if (c.kind === 'empty-page') {
    print(`${c.id}  [empty page] ${c.entity.label}  (${c.entity.kind}, ${c.entity.scope})`);
    print(`   why: ${c.why}`);
    return;
  }
  const where = c.source ? c.source.label : 'a source no longer here';
  print(`${c.id}  [possible duplicate, ${c.state}] ${c.name}  (${c.entityKind}, from ${where}, ${c.scope})`);
  const may = c.candidates.map((x) => `${x.label} (${x.id}, ${x.score.toFixed(2)})`).join('; ');
  print(`   may be: ${may || 'no candidate you can see'}`);
  for (const f of c.facts.slice(0, 5))
    print(`   - ${f.attribute ? `${f.attribute}: ` : ''}${f.statement.replace(/\s+/g, ' ').slice(0, 160)}`);
  if (c.facts.length > 5) print(`   … and ${c.facts.length - 5} more facts`);
  if (c.stale) print(`   stale: ${c.stale}; it can only be dismissed`);
  else if (!c.canResolve && c.state === 'pending') print('   you cannot decide this one');
}

function countsLine(counts: { duplicate: number; emptyPage: number }): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return `${n(counts.duplicate, 'possible duplicate', 'possible duplicates')}, ${n(counts.emptyPage, 'empty page', 'empty pages')}.`;
}

type ApproveOptions = { editBody?: string; editLabel?: string; confirmSensitive?: boolean; json?: boolean };
type CardsOptions = { kind?: string; all?: boolean; offset?: string; limit?: string; json?: boolean };

/** A whole number option as the operation takes it; anything else is left for its schema to refuse. */
const whole = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : v);

export function registerInbox(program: Command): void {
  const inbox = program
    .command('inbox')
    .description('Proposals from write-back waiting for review')
    .option('--json', 'print JSON')
    .option('--all', 'include decided and skipped proposals')
    .action((opts: { json?: boolean; all?: boolean }) =>
      withEngine(program, async (engine) => {
        const ctx = memberContext(engine, 'cli');
        const view = await run(ctx, InboxList, { all: opts.all });
        const cards = await run(ctx, InboxCards, { all: opts.all });
        if (opts.json) return printJson({ ...view, cards: cards.cards });
        if (view.items.length === 0 && cards.cards.length === 0) print('The inbox is empty.');
        for (const p of view.items) show(p);
        for (const c of cards.cards) showCard(c);
        if (cards.total > cards.cards.length)
          print(
            `… ${cards.total - cards.cards.length} more cards: brain inbox cards --offset ${cards.cards.length}`,
          );
        print(`${view.pending} pending for you. Review cards: ${countsLine(cards.counts)}`);
      }),
    );
  // `--json` after a subcommand is taken by `inbox` itself (commander's shared options).
  const json = (opts: { json?: boolean }) => opts.json || inbox.opts().json;
  inbox
    .command('approve')
    .description('Approve a proposal: written as a note at its scope, traced to its run')
    .argument('<id>', 'proposal id')
    .option('--edit-body <text>', 'approve with this body instead')
    .option('--edit-label <text>', 'approve with this label instead')
    .option(
      '--confirm-sensitive',
      'approve a proposal flagged sensitive as it is (everyone in its scope reads it)',
    )
    .option('--json', 'print JSON')
    .action((id: string, opts: ApproveOptions) =>
      withEngine(program, async (engine) => {
        const p = await run(memberContext(engine, 'cli'), InboxApprove, {
          id,
          body: opts.editBody,
          label: opts.editLabel,
          confirmSensitive: opts.confirmSensitive,
        });
        if (json(opts)) return printJson(p);
        print(`approved${p.edited ? ' (edited)' : ''}: note ${p.itemId} in ${p.scope}`);
      }),
    );
  inbox
    .command('cards')
    .description(InboxCards.summary)
    .option('--kind <kind>', REVIEW_CARD_KINDS.join(' | '))
    .option('--all', 'include the duplicate cards decided already')
    .option('--offset <n>', 'skip the first n cards')
    .option('--limit <n>', 'at most n cards (default 50, at most 200)')
    .option('--json', 'print JSON')
    .action((opts: CardsOptions) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), InboxCards, {
          kind: opts.kind as (typeof REVIEW_CARD_KINDS)[number] | undefined,
          all: opts.all,
          offset: whole(opts.offset) as number | undefined,
          limit: whole(opts.limit) as number | undefined,
        });
        if (json(opts)) return printJson(view);
        if (view.cards.length === 0) print('No review card.');
        for (const c of view.cards) showCard(c);
        print(`${view.offset + view.cards.length} of ${view.total}. Pending: ${countsLine(view.counts)}`);
      }),
    );
  inbox
    .command('resolve')
    .description('Resolve a review card: same [entity] (default: its first candidate), new, or dismiss')
    .argument('<card>', 'card id (brain inbox cards)')
    .argument('<action>', 'same | new | dismiss')
    .argument('[entity]', 'with same: the candidate it is')
    .option('--json', 'print JSON')
    .action((card: string, action: string, entity: string | undefined, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), InboxResolveCard, {
          card,
          action: action as 'same' | 'new' | 'dismiss',
          entity,
        });
        if (json(opts)) return printJson(out);
        if (out.state === 'dismissed') return print(`dismissed: ${out.card}`);
        const n = out.facts.length;
        print(
          `resolved: ${n} fact${n === 1 ? '' : 's'} stated on ${out.entity?.label} (${out.entity?.id}, ${out.entity?.scope})`,
        );
      }),
    );
  inbox
    .command('reject')
    .description('Reject a proposal, with a reason')
    .argument('<id>', 'proposal id')
    .requiredOption('--reason <text>', 'why it is rejected')
    .option('--json', 'print JSON')
    .action((id: string, opts: { reason: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const p = await run(memberContext(engine, 'cli'), InboxReject, { id, reason: opts.reason });
        if (json(opts)) return printJson(p);
        print(`rejected: ${p.label}`);
      }),
    );
}
