/**
 * `brain runs`: runs handed in by agents (and remembered chats) with their write-back outcome, the
 * contract's runs.list (src/shared/api/ops/inbox.ts). `--process` (runs.process, the command line's
 * own) runs the passes that wait first ([J5] in docs/WORKSPACE.md), then lists as usual.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { RunsList, RunsProcess } from '#shared/api/ops/inbox.ts';
import type { RunView } from '#shared/api/writeback-types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function outcome(r: RunView): string {
  if (!r.pass) return r.writeback === 'pending' ? 'write-back pending' : `write-back ${r.writeback}`;
  if (r.pass.state === 'failed') return `write-back failed: ${r.pass.error ?? 'unknown error'}`;
  if (r.pass.state === 'running') return 'write-back running';
  return `${r.pass.proposed} proposed: ${r.pass.written} written, ${r.pass.reviewed} to review, ${r.pass.skipped} skipped`;
}

/**
 * The passes that wait, now: pending runs and runs whose lease ran out ([J5] in docs/WORKSPACE.md).
 * Ctrl+C (or SIGTERM) gives back the claim of the pass in flight instead of leaving it to its
 * lease ([J3]); the runs done so far are listed as usual.
 */
async function processNow(engine: Engine): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await run(memberContext(engine, 'cli', { signal: stop.signal }), RunsProcess, {});
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export function registerRuns(program: Command): void {
  program
    .command('runs')
    .description('Runs with their write-back outcome')
    .option('--json', 'print JSON')
    .option(
      '--process',
      'run the write-back passes that wait or were left by a stopped process, now (needs a chat model)',
    )
    .action((opts: { json?: boolean; process?: boolean }) =>
      withEngine(program, async (engine) => {
        if (opts.process) await processNow(engine);
        const out = await run(memberContext(engine, 'cli'), RunsList, {});
        if (opts.json) return printJson(out);
        const { runs } = out;
        if (runs.length === 0) print('No runs yet: agents hand them in with brain_run_end.');
        for (const r of runs) print(`${r.id}  ${r.agent}  ${r.status}  ${r.endedAt}  ${outcome(r)}`);
      }),
    );
}
