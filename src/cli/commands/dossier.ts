import type { Command } from 'commander';
import { dossier } from '../../engine/api/files-view.ts';
import type { Dossier, EntityDossier } from '../../shared/api/types.ts';
import { describeCitation } from '../../shared/citation.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function printEntity(e: EntityDossier): void {
  print(`Names: ${e.aliases.map((a) => a.name).join(' · ')}`);
  print();
  print(`Facts and notes (${e.totals.facts})`);
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

function printDossier(d: Dossier): void {
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
    printEntity(d.entity);
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

export function registerDossier(program: Command): void {
  program
    .command('dossier')
    .description("An item's or an entity's dossier: names, facts, mentions and their citations")
    .argument('<id>', 'item or entity id')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const d = await dossier(engine, id);
        if (opts.json) return printJson(d);
        printDossier(d);
      }),
    );
}
