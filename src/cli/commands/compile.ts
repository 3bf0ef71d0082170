/**
 * `brain compile [id...] [--force] [--json]`: the contract's knowledge.compile
 * (src/shared/api/ops/compile.ts; docs/FACTS.md [K9]–[K11]). Without ids, every source of this
 * member's that waits for a pass. A line per source as each is compiled; without a chat model it
 * says one is needed (`brain config` sets it) and exits non-zero. `brain index` compiles the
 * files it indexed through `compileIndexed`.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext, type Notify } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import type { CompileProgressEvent } from '#shared/api/events.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { COMPILE_LIMITS, KnowledgeCompile } from '#shared/api/ops/compile.ts';
import { ChatModelGet } from '#shared/api/ops/team.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type Outcome = OutputOf<typeof KnowledgeCompile>['results'][number];

type Line = Pick<
  CompileProgressEvent,
  'id' | 'label' | 'state' | 'facts' | 'added' | 'retired' | 'entities' | 'cards' | 'error'
>;

/** One line for one source's pass. */
function compileLine(o: Line): string {
  const head = `${o.state.padEnd(8)} ${o.id}  ${o.label}`;
  if (o.state === 'failed') return `${head}: ${o.error}`;
  if (o.state === 'stale') return `${head}: changed while compiling; it is compiled again next time`;
  if (o.state === 'busy') return `${head}: ${o.error ?? 'being compiled by another process'}`;
  const cards = o.cards ? `, ${o.cards} possible duplicate${o.cards === 1 ? '' : 's'} for review` : '';
  const changes = o.state === 'skipped' ? 'unchanged' : `${o.added} new, ${o.retired} retired`;
  return `${head}: ${o.facts} facts on ${o.entities} entities (${changes})${cards}`;
}

/** Prints each source's line as it is compiled: on stdout, or on stderr when stdout is JSON. */
function lines(json: boolean): Notify {
  return (event, payload) => {
    if (event !== 'compile.progress') return;
    const line = compileLine(payload as CompileProgressEvent);
    if (!json) print(line);
    else if (process.stderr.isTTY) process.stderr.write(`${line}\n`);
  };
}

function printTotals(out: OutputOf<typeof KnowledgeCompile>): void {
  const by = (state: Outcome['state']) => out.results.filter((r) => r.state === state).length;
  const facts = out.results.reduce((n, r) => n + r.facts, 0);
  const cards = out.results.reduce((n, r) => n + r.cards, 0);
  const busy = by('busy') ? `, ${by('busy')} being compiled by another process` : '';
  print(
    `${by('done')} compiled, ${by('skipped')} unchanged${busy}, ${by('failed')} failed with ${out.model}: ${facts} facts${cards ? `, ${cards} possible duplicates in \`brain inbox\`` : ''}.`,
  );
}

/**
 * After `brain index`: with a chat model, the files it indexed are compiled, a line each (on
 * stderr when stdout is JSON); null when no model is configured or nothing was indexed.
 */
export async function compileIndexed(
  engine: Engine,
  ids: readonly string[],
  json: boolean,
): Promise<OutputOf<typeof KnowledgeCompile> | null> {
  if (ids.length === 0) return null;
  const model = await run(memberContext(engine, 'cli'), ChatModelGet, {});
  if (!model.enabled) return null;
  // One call names at most COMPILE_LIMITS.ids sources: a first `brain index` indexes thousands.
  const out: OutputOf<typeof KnowledgeCompile> = { model: model.model ?? '', results: [] };
  for (let at = 0; at < ids.length; at += COMPILE_LIMITS.ids) {
    const part = await run(memberContext(engine, 'cli', { notify: lines(json) }), KnowledgeCompile, {
      ids: ids.slice(at, at + COMPILE_LIMITS.ids),
      auto: true,
    });
    out.model = part.model;
    out.results.push(...part.results);
  }
  if (!json && out.results.length) printTotals(out);
  return out;
}

export function registerCompile(program: Command): void {
  program
    .command('compile')
    .description(KnowledgeCompile.summary)
    .argument('[id...]', 'files or notes (default: every source of yours waiting for a pass)')
    .option('--force', 'compile even a source whose content is unchanged')
    .option('--json', 'print JSON: {model, results}')
    .action((ids: string[], opts: { force?: boolean; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const json = opts.json === true;
        const out = await run(memberContext(engine, 'cli', { notify: lines(json) }), KnowledgeCompile, {
          ...(ids.length ? { ids } : {}),
          ...(opts.force ? { force: true } : {}),
        });
        // A pass that failed (the model did not answer, or not as asked) is worth a non-zero exit to a script.
        if (out.results.some((r) => r.state === 'failed')) process.exitCode = 1;
        if (json) return printJson(out);
        if (out.results.length === 0) print('Nothing to compile: every source of yours is compiled.');
        else printTotals(out);
      }),
    );
}
