/**
 * `brain observe` and `brain observations`: the contract's observations.add and observations.list
 * (src/shared/api/ops/agents.ts, docs/AGENTS.md [G1], [G2]). A script names its agent with --agent
 * (and its run with --run) and records the agent's types; without --agent the observation is a
 * person's and its type starts with human_.
 */
import type { Command } from 'commander';
import { RUN_FEEDBACK_TYPES } from '#engine/agents/observations.ts';
import { run } from '#engine/commands/index.ts';
import { type CommandContext, memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { OBSERVATION_LIMITS, ObservationsAdd, ObservationsList } from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import { actorUnder } from '#shared/ids.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type Observation = OutputOf<typeof ObservationsList>['observations'][number];

type ObserveOptions = {
  type: string;
  text?: string;
  payload?: string;
  importance?: string;
  agent?: string;
  run?: string;
  json?: boolean;
};

function parsePayload(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new AppError('validation-failed', '--payload: not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new AppError('validation-failed', '--payload: a JSON object ({…}).');
  return parsed as Record<string, unknown>;
}

/** A person, or the agent a script names (its run, if given, goes into origin and the record). */
function observerContext(engine: Engine, opts: ObserveOptions): CommandContext {
  if (opts.agent === undefined) {
    // A person names a run only with feedback on it (docs/AGENTS.md [G10]).
    if (opts.run !== undefined && !(RUN_FEEDBACK_TYPES as readonly string[]).includes(opts.type.trim()))
      throw new AppError(
        'validation-failed',
        `--run: a run is an agent's; give --agent too, or a feedback type (${RUN_FEEDBACK_TYPES.join(', ')}).`,
      );
    return memberContext(engine, 'cli');
  }
  return {
    ...memberContext(engine, 'cli'),
    origin: { actor: actorUnder(`agent:${opts.agent}`, engine.user), source: 'cli', run: opts.run ?? null },
    // No --run: no run (src/engine/commands/agents.ts records an empty one as none).
    agent: { name: opts.agent, run: opts.run ?? '', startedAt: new Date().toISOString() },
  };
}

function printObservation(o: Observation): void {
  const who = o.agent ? `${o.agent}${o.run ? ` (${o.run})` : ''}` : `person ${o.user}`;
  print(`${o.createdAt}  ${o.type}  importance ${o.importance}  ${who}  [${o.scope}]`);
  print(`  ${o.id}${o.synthesizedAt ? `  synthesized ${o.synthesizedAt}` : ''}`);
  if (o.text) print(`  ${o.text.replace(/\s+/g, ' ').slice(0, 300)}`);
  if (o.payload) print(`  ${JSON.stringify(o.payload).slice(0, 300)}`);
}

export function registerObserve(program: Command): void {
  program
    .command('observe')
    .description(`${ObservationsAdd.summary} (give --text or --payload)`)
    .requiredOption('--type <type>', 'codebase_pattern, gotcha, decision…; without --agent: human_…')
    .option('--text <text>', `what was observed (at most ${OBSERVATION_LIMITS.textChars} characters)`)
    .option('--payload <json>', 'structured details, a JSON object')
    .option('--importance <n>', '0–1 (default 0.5)')
    .option('--agent <name>', 'the agent the script records for (else a person)')
    .option('--run <id>', "the agent's run; without --agent, the run a person's feedback is on")
    .option('--json', 'print JSON')
    .action((opts: ObserveOptions) =>
      withEngine(program, async (engine) => {
        const out = await run(observerContext(engine, opts), ObservationsAdd, {
          type: opts.type,
          text: opts.text,
          payload: parsePayload(opts.payload),
          importance: optionalNumber(opts.importance),
          ...(opts.agent === undefined && opts.run !== undefined ? { run: opts.run } : {}),
        });
        if (opts.json) return printJson(out);
        printObservation(out.observation);
      }),
    );
  program
    .command('observations')
    .description(ObservationsList.summary)
    .option('--agent <name>', "one agent's")
    .option('--type <type>', 'one type')
    .option('--min-importance <n>', 'importance at least this (0–1)')
    .option('--unsynthesized', 'only those no synthesis has read yet')
    .option('--limit <n>', `how many (default ${OBSERVATION_LIMITS.listDefault})`)
    .option('--offset <n>', 'skip this many')
    .option('--json', 'print JSON')
    .action(
      (opts: {
        agent?: string;
        type?: string;
        minImportance?: string;
        unsynthesized?: boolean;
        limit?: string;
        offset?: string;
        json?: boolean;
      }) =>
        withEngine(program, async (engine) => {
          const out = await run(memberContext(engine, 'cli'), ObservationsList, {
            agent: opts.agent,
            type: opts.type,
            min_importance: optionalNumber(opts.minImportance),
            unsynthesized: opts.unsynthesized,
            limit: optionalNumber(opts.limit),
            offset: optionalNumber(opts.offset),
          });
          if (opts.json) return printJson(out);
          if (out.observations.length === 0) print('No observations yet: `brain observe` records one.');
          for (const o of out.observations) printObservation(o);
          if (out.total > out.observations.length) print(`(${out.observations.length} of ${out.total})`);
        }),
    );
}
