/**
 * `brain inbox`: proposals waiting for review; approve (optionally edited) or reject with a reason.
 * The contract's inbox.list, inbox.approve and inbox.reject (src/shared/api/ops/inbox.ts): their
 * limits and who may decide are the engine command's, as on every surface.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { InboxApprove, InboxList, InboxReject } from '#shared/api/ops/inbox.ts';
import type { ProposalView } from '#shared/api/writeback-types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function show(p: ProposalView): void {
  print(`${p.id}  [${p.state}] ${p.label}  (${p.kind}, ${p.scope}, confidence ${p.confidence.toFixed(2)})`);
  print(`   why: ${p.reason}${p.canDecide ? '' : ' — you cannot decide this one'}`);
  print(`   ${p.body.replace(/\s+/g, ' ').slice(0, 300)}`);
  if (p.run) print(`   from run ${p.run.id} (${p.run.agent}, ${p.run.status})`);
}

type ApproveOptions = { editBody?: string; editLabel?: string; json?: boolean };

export function registerInbox(program: Command): void {
  const inbox = program
    .command('inbox')
    .description('Proposals from write-back waiting for review')
    .option('--json', 'print JSON')
    .option('--all', 'include decided and skipped proposals')
    .action((opts: { json?: boolean; all?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), InboxList, { all: opts.all });
        if (opts.json) return printJson(view);
        if (view.items.length === 0) print('The inbox is empty.');
        for (const p of view.items) show(p);
        print(`${view.pending} pending for you.`);
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
    .option('--json', 'print JSON')
    .action((id: string, opts: ApproveOptions) =>
      withEngine(program, async (engine) => {
        const p = await run(memberContext(engine, 'cli'), InboxApprove, {
          id,
          body: opts.editBody,
          label: opts.editLabel,
        });
        if (json(opts)) return printJson(p);
        print(`approved${p.edited ? ' (edited)' : ''}: note ${p.itemId} in ${p.scope}`);
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
