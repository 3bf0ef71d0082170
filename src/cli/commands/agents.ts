/**
 * `brain agents list|show|versions|diff|rollback|synthesize|set|prune`: the contract's agents.*
 * operations (src/shared/api/ops/agents.ts, docs/AGENTS.md [G3]–[G6]), each with --json;
 * compare, effectiveness and share ([G8]–[G10]) are in src/cli/commands/agent-runs.ts.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import {
  AgentsConfig,
  AgentsDiff,
  AgentsList,
  AgentsPrune,
  AgentsRollback,
  AgentsSet,
  AgentsShow,
  AgentsSynthesize,
  AgentsVersions,
} from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';
import { registerAgentRuns } from './agent-runs.ts';

type Summary = OutputOf<typeof AgentsList>['agents'][number];
type Version = OutputOf<typeof AgentsVersions>['versions'][number];

const usd = (v: number | null) => (v === null ? 'cost unknown' : `$${v.toFixed(4)}`);

function printSummary(a: Summary): void {
  const active = a.activeVersion === null ? 'no brain yet' : `v${a.activeVersion} of ${a.versions}`;
  const last = a.lastSynthesizedAt ? `last ${a.lastSynthesizedAt}` : 'never synthesized';
  print(
    `${a.name}  ${a.tier}  ${active}  waiting ${a.waiting}/${a.threshold}  ${last}  this week ${usd(a.costThisWeekUsd)}  [${a.scope}]`,
  );
}

function printVersion(v: Version, active: number | null): void {
  const mark = v.number === active ? '*' : ' ';
  const tokens =
    v.inputTokens === null ? 'tokens unknown' : `${v.inputTokens}/${v.outputTokens}/${v.cachedTokens} tokens`;
  print(
    `${mark} v${v.number}  parent ${v.parent ?? '-'}  ${v.createdAt}  ${v.model}  ${tokens}  ${usd(v.costUsd)}  ${plural(v.observationIds.length, 'observation')}`,
  );
}

/** A version number as given on the command line (1, 2, …), else a usage error naming `what`. */
function versionNumber(what: string, value: string): number {
  if (!/^\s*[1-9]\d*\s*$/.test(value))
    throw new AppError('validation-failed', `${what}: expected a version number, got ${value}`);
  return Number(value);
}

/** One subcommand: its positional arguments and options (commander passes them, then the command). */
function register(
  agents: Command,
  name: string,
  describe: (c: Command) => Command,
  act: (args: string[], opts: Record<string, string | boolean | undefined>) => Promise<void>,
): void {
  describe(agents.command(name))
    .option('--json', 'print JSON')
    .action((...all: unknown[]) => {
      const cmd = all.at(-1) as Command;
      const args = all.slice(0, -2) as string[];
      return act(args, cmd.opts());
    });
}

export function registerAgents(program: Command): void {
  const agents = program.command('agents').description('Agent brains: synthesized, versioned, rolled back');
  // compare, effectiveness, share (docs/AGENTS.md [G8]–[G10]).
  registerAgentRuns(program, agents);
  const on = (fn: Parameters<typeof withEngine>[1]) => withEngine(program, fn);
  register(
    agents,
    'list',
    (c) => c.description(AgentsList.summary),
    (_a, o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsList, {});
        if (o.json) return printJson(out);
        if (out.agents.length === 0) print('No agents yet: an agent appears with its first observation.');
        for (const a of out.agents) printSummary(a);
      }),
  );
  register(
    agents,
    'show',
    (c) => c.description(AgentsShow.summary).argument('<agent>'),
    ([agent], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsShow, { agent });
        if (o.json) return printJson(out);
        printSummary(out.agent);
        if (!out.brain) return print('No brain yet: `brain agents synthesize` makes one.');
        if (out.brain.summary) print(`\n${out.brain.summary}`);
        for (const [section, entries] of Object.entries(out.brain.sections)) {
          print(`\n${section}`);
          for (const e of entries) print(`  - ${e.text}  (${e.observation_ids.join(', ')})`);
        }
      }),
  );
  register(
    agents,
    'versions',
    (c) => c.description(AgentsVersions.summary).argument('<agent>'),
    ([agent], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsVersions, { agent });
        if (o.json) return printJson(out);
        if (out.versions.length === 0) print(`${out.agent} has no versions yet.`);
        for (const v of out.versions) printVersion(v, out.activeVersion);
      }),
  );
  register(
    agents,
    'diff',
    (c) => c.description(AgentsDiff.summary).argument('<agent>').argument('<from>').argument('<to>'),
    ([agent, from, to], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsDiff, {
          agent,
          from: versionNumber('agents diff: from', from ?? ''),
          to: versionNumber('agents diff: to', to ?? ''),
        });
        if (o.json) return printJson(out);
        if (out.sections.length === 0) print(`v${out.from} and v${out.to} hold the same entries.`);
        for (const s of out.sections) {
          print(s.section);
          for (const e of s.added) print(`  + ${e.text}`);
          for (const e of s.removed) print(`  - ${e.text}`);
        }
      }),
  );
  register(
    agents,
    'rollback',
    (c) =>
      c.description(AgentsRollback.summary).argument('<agent>').requiredOption('--to <n>', 'the version'),
    ([agent], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsRollback, {
          agent,
          to: versionNumber('agents rollback: --to', o.to as string),
        });
        if (o.json) return printJson(out);
        print(
          `${out.agent}: active version v${out.activeVersion} (was ${out.previous === null ? 'none' : `v${out.previous}`}).`,
        );
      }),
  );
  register(
    agents,
    'synthesize',
    (c) => c.description(AgentsSynthesize.summary).argument('<agent>').option('--force', 'even when not due'),
    ([agent], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsSynthesize, {
          agent,
          force: o.force === true,
        });
        if (out.state === 'failed') process.exitCode = 1;
        if (o.json) return printJson(out);
        if (out.version) {
          print(
            `${out.agent}: synthesized v${out.version.number} from ${plural(out.version.observationIds.length, 'observation')}.`,
          );
          if (out.dropped)
            print(`  ${out.dropped} entries dropped: they cited ids the synthesis was not given.`);
          if (out.pruned) print(`  ${plural(out.pruned, 'observation')} pruned.`);
        } else print(`${out.agent}: ${out.state}: ${out.reason}`);
      }),
  );
  register(
    agents,
    'set',
    (c) =>
      c
        .description(AgentsSet.summary)
        .argument('<agent>')
        .requiredOption('--tier <tier>', 'lead, default or high-volume'),
    ([agent], o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsSet, { agent, tier: o.tier as string });
        if (o.json) return printJson(out);
        printSummary(out.agent);
      }),
  );
  register(
    agents,
    'prune',
    (c) => c.description(AgentsPrune.summary),
    (_a, o) =>
      on(async (engine) => {
        const out = await run(memberContext(engine, 'cli'), AgentsPrune, {});
        if (o.json) return printJson(out);
        print(
          `Pruned ${plural(out.pruned, 'observation')} (${out.synthesized} synthesized, ${out.stale} stale).`,
        );
      }),
  );
  register(
    agents,
    'config',
    (c) =>
      c
        .description(AgentsConfig.summary)
        .option(
          '--price <model=in,out,cached>',
          'USD per 1M tokens for a model id (repeatable; merged into the table)',
          (v: string, all: string[] = []) => [...all, v],
        )
        .option('--clear-prices', 'empty the price table first')
        .option('--min-importance <n>', 'synthesis reads observations at least this important')
        .option('--prune-importance <n>', 'synthesized observations under this are pruned')
        .option('--stale-days <n>', 'unsynthesized ones under the floor go after this many days'),
    (_a, o) =>
      on(async (engine) => {
        const ctx = memberContext(engine, 'cli');
        const given = (o.price as unknown as string[] | undefined) ?? [];
        let prices: Record<string, { input: number; output: number; cached: number }> | undefined;
        if (given.length > 0 || o.clearPrices) {
          prices = o.clearPrices ? {} : (await run(ctx, AgentsConfig, {})).prices;
          for (const p of given) {
            const m = /^(.+)=([^,]+),([^,]+)(?:,([^,]+))?$/.exec(p);
            const nums = m ? [m[2], m[3], m[4] ?? m[2]].map(Number) : [];
            if (!m?.[1] || nums.some((n) => !Number.isFinite(n)))
              throw new AppError(
                'validation-failed',
                `--price ${p}: give MODEL=INPUT,OUTPUT[,CACHED] in USD per 1M tokens`,
              );
            prices[m[1]] = { input: nums[0] as number, output: nums[1] as number, cached: nums[2] as number };
          }
        }
        const out = await run(ctx, AgentsConfig, {
          prices,
          min_synthesis_importance: optionalNumber(o.minImportance as string | undefined),
          prune_importance: optionalNumber(o.pruneImportance as string | undefined),
          stale_days: optionalNumber(o.staleDays as string | undefined),
        });
        if (o.json) return printJson(out);
        print(
          `synthesis reads importance >= ${out.minSynthesisImportance}; prunes synthesized < ${out.pruneImportance}, unsynthesized below the floor after ${out.staleDays} days`,
        );
        const models = Object.entries(out.prices);
        if (models.length === 0)
          print('No prices: synthesis costs are unknown (`--price MODEL=IN,OUT,CACHED`).');
        for (const [model, p] of models)
          print(`  ${model}: $${p.input} in, $${p.output} out, $${p.cached} cached per 1M tokens`);
      }),
  );
}
