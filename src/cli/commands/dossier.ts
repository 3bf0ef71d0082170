/**
 * `brain dossier <id>`: the contract's items.dossier (src/shared/api/ops/knowledge.ts), printed. An
 * entity's page is shown as the app shows it (src/renderer/src/features/dossier/EntityDossier.tsx):
 * its current facts with their citations from facts.list (docs/FACTS.md [K5]) under "Facts", and
 * the dossier's own `facts` (notes and links tied to the entity, never its claims) under "Notes and
 * links". `--json` is items.dossier as every surface answers it (facts: `brain fact list --json`).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { FactsList } from '#shared/api/ops/facts.ts';
import { ItemsDossier } from '#shared/api/ops/knowledge.ts';
import type { Dossier, EntityDossier } from '#shared/api/types.ts';
import { describeCitation } from '#shared/citation.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';
import { type Fact, printFact } from './fact.ts';

function printEntity(e: EntityDossier, current: readonly Fact[]): void {
  print(`Names: ${e.aliases.map((a) => a.name).join(' · ')}`);
  print();
  print(`Facts (${current.length})`);
  for (const f of current) printFact(f, '  ');
  print();
  print(`Notes and links (${e.totals.facts})`);
  for (const f of e.facts) {
    const cite = f.citation ? `  [${describeCitation(f.citation)}]` : '';
    print(
      `  - ${f.text.replace(/\s+/g, ' ').slice(0, 200)}  (${f.via}, ${f.item.id}, by ${f.origin.actor} via ${f.origin.source})${cite}`,
    );
  }
  print();
  print(`Mentions (${e.totals.mentions})`);
  for (const m of e.mentions) {
    const cite = m.citation ? describeCitation(m.citation) : m.item.label;
    const at = m.span ? ` chars ${m.span.start}-${m.span.end}` : '';
    print(`  - ${cite}${at}  (${m.item.id}, by ${m.origin.actor} via ${m.origin.source})`);
    print(`      …${m.snippet.before}[${m.snippet.match}]${m.snippet.after}`);
  }
  if (e.related.length) {
    print();
    print('Related');
    for (const r of e.related)
      print(`  - ${r.via}  ${r.entity.label} [${r.entity.kind}, ${r.entity.scope}]  ${r.entity.id}`);
  }
  if (e.duplicates.length) {
    print();
    print('Possible duplicates (link with SAME_AS if they are the same)');
    for (const d of e.duplicates) print(`  - ${d.a.label} ~ ${d.b.label}: ${d.reason}`);
  }
  if (e.retired.length) {
    print();
    print('Retired or superseded');
    for (const r of e.retired) {
      print(
        `  - ${r.what}: ${r.item.label} (${r.item.id})${r.replacement ? ` → replaced by ${r.replacement.label} (${r.replacement.id})` : ''}`,
      );
    }
  }
}

function printDossier(d: Dossier, current: readonly Fact[]): void {
  const item = d.item;
  print(
    `${item.label}  [${item.storageKind}${item.kind !== item.storageKind ? `, ${item.kind}` : ''}, ${item.scope}]  ${item.id}`,
  );
  print(
    `Added by ${item.origin.actor} via ${item.origin.source} at ${item.origin.at}${item.origin.run ? `, run ${item.origin.run}` : ''}`,
  );
  if (item.retiredAt) print(`Retired at ${item.retiredAt}`);
  if (d.citation) print(`Cites: ${describeCitation(d.citation)}`);
  print();
  if (d.entity) {
    printEntity(d.entity, current);
    return;
  }
  if (d.outline.length) {
    print('Outline');
    for (const o of d.outline) print(`  ${o.lineStart ? `line ${o.lineStart}  ` : ''}${o.label}  ${o.id}`);
    print();
  }
  if (d.textNote) print(d.textNote);
  if (d.text !== null) {
    const shown = d.highlight ? d.text.slice(d.highlight.start, d.highlight.end) : d.text.slice(0, 2000);
    print(shown);
  }
}

/** `--at START-END`, as the app's mention links open a dossier; a malformed one the contract refuses. */
function spanOf(value: string): { start: number; end: number } {
  const m = /^(\d+)-(\d+)$/.exec(value.trim());
  return { start: Number(m?.[1] ?? Number.NaN), end: Number(m?.[2] ?? Number.NaN) };
}

export function registerDossier(program: Command): void {
  program
    .command('dossier')
    .description(
      "An item's or an entity's dossier: names, current facts, notes and links, mentions and their citations",
    )
    .argument('<id>', 'item or entity id')
    .option('--at <start-end>', "a character range of the item's text to show (a mention's span)", spanOf)
    .option('--json', 'print JSON')
    .action((id: string, opts: { at?: { start: number; end: number }; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const ctx = memberContext(engine, 'cli');
        const d = await run(ctx, ItemsDossier, { id, at: opts.at });
        if (opts.json) return printJson(d);
        const current = d.entity ? (await run(ctx, FactsList, { entity: d.item.id })).facts : [];
        printDossier(d, current);
      }),
    );
}
