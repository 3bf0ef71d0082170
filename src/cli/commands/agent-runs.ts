/**
 * `brain agents compare|effectiveness|share`: the contract's agents.compare, agents.effectiveness
 * and agents.share (src/shared/api/ops/agent-runs.ts, docs/AGENTS.md [G8]–[G10]), each with --json.
 * Registered under `brain agents` by src/cli/commands/agents.ts.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { AgentsCompare, AgentsEffectiveness, AgentsShare } from '#shared/api/ops/agent-runs.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type Effectiveness = OutputOf<typeof AgentsEffectiveness>;

const pct = (rate: number | null) => (rate === null ? '-' : `${(rate * 100).toFixed(1)} %`);
const usd = (v: number | null) => (v === null ? 'cost unknown' : `$${v.toFixed(4)}`);

/** `--versions 6,7` as the operation's two numbers (its schema names anything else wrong). */
function parseVersions(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((v) => (v.trim() === '' ? Number.NaN : Number(v.trim())));
}

function printEffectiveness(out: Effectiveness): void {
  print(`${out.agent}: trend ${out.trend}`);
  if (out.versions.length === 0) print('No versions yet.');
  for (const v of out.versions) {
    print(
      `  v${v.number}  runs ${v.runs}  ended ${v.ended}  succeeded ${v.succeeded}  rate ${pct(v.rate)}  ` +
        `thumbs +${v.thumbsUp}/-${v.thumbsDown}  score ${pct(v.score)}  ${usd(v.costUsd)}`,
    );
  }
  const c = out.comparison;
  if (c) {
    print(
      `comparing v${c.a} and v${c.b} (${c.split} % of runs get v${c.a}), runs since ${c.since ?? 'it was set'}:`,
    );
    print(`  v${c.a}: ${c.aStats.succeeded} of ${c.aStats.runs} runs succeeded, rate ${pct(c.aStats.rate)}`);
    print(`  v${c.b}: ${c.bStats.succeeded} of ${c.bStats.runs} runs succeeded, rate ${pct(c.bStats.rate)}`);
  }
  print(`cost per week: ${out.weeks.map((w) => `${w.week} ${usd(w.costUsd)}`).join(', ')}`);
}

/** Adds compare, effectiveness and share to `brain agents`. */
export function registerAgentRuns(program: Command, agents: Command): void {
  const on = (fn: Parameters<typeof withEngine>[1]) => withEngine(program, fn);
  agents
    .command('compare')
    .description(AgentsCompare.summary)
    .argument('<agent>')
    .option('--versions <a,b>', 'the two version numbers, such as 6,7')
    .option('--split <percent>', "a's share of runs, 1–99 (default 50)")
    .option('--off', 'clear the comparison')
    .option('--json', 'print JSON')
    .action((agent: string, o: { versions?: string; split?: string; off?: boolean; json?: boolean }) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsCompare, {
          agent,
          versions: parseVersions(o.versions),
          split: optionalNumber(o.split),
          off: o.off === true ? true : undefined,
        });
        if (o.json) return printJson(out);
        const c = out.comparison;
        print(
          c
            ? `${out.agent}: comparing v${c.a} and v${c.b}; ${c.split} % of runs get v${c.a}, chosen by run id.`
            : `${out.agent}: no comparison; runs get the active version.`,
        );
      }),
    );
  agents
    .command('effectiveness')
    .description(AgentsEffectiveness.summary)
    .argument('<agent>')
    .option('--json', 'print JSON')
    .action((agent: string, o: { json?: boolean }) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsEffectiveness, { agent });
        if (o.json) return printJson(out);
        printEffectiveness(out);
      }),
    );
  agents
    .command('share')
    .description(AgentsShare.summary)
    .argument('<agent>')
    .requiredOption('--scope <scope>', 'org, team:<id> or user:<id>')
    .option('--json', 'print JSON')
    .action((agent: string, o: { scope: string; json?: boolean }) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsShare, { agent, scope: o.scope });
        if (o.json) return printJson(out);
        print(`${out.agent}: brain kept in ${out.scope} (was ${out.previous}).`);
      }),
    );
}
