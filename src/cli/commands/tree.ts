/**
 * `brain tree …`: connected Markdown repositories and their tree (the contract's trees.*
 * operations, src/shared/api/ops/trees.ts; docs/TREES.md). `connect`, `list`, `status`,
 * `rebuild`, `disconnect` manage them; `show`, `read`, `lookup`, `grep`, `changes`, `backlinks` and `broken`
 * read the tree of the indexed commit, as agents do with brain_tree and its siblings.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import type { Operation, OutputOf } from '#shared/api/operation.ts';
import {
  TreesBacklinks,
  TreesBroken,
  TreesChanges,
  TreesConnect,
  TreesDisconnect,
  TreesGrep,
  TreesList,
  TreesLookup,
  TreesRead,
  TreesRebuild,
  TreesStatus,
  TreesTree,
} from '#shared/api/ops/trees.ts';
import { plural } from '#shared/plural.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { oneLine, print, printJson } from '../output.ts';

type Source = OutputOf<typeof TreesStatus>;
type Json = { json?: boolean; tree?: string };

function printSource(s: Source): void {
  const c = s.counts;
  print(`${s.id}  ${oneLine(s.root)}${s.branch ? ` (${s.branch})` : s.isGit ? '' : ' (folder)'}  ${s.scope}`);
  print(`  state     ${s.state}${s.error ? `: ${s.error}` : ''}`);
  if (s.remote)
    print(
      `  shared by ${s.createdBy} (built here from the documents it synced${s.waitingFor ? `; waiting for ${s.waitingFor} of them` : ''})`,
    );
  print(
    `  commit    ${s.indexedCommit ?? 'none yet'}${s.attemptedCommit && s.attemptedCommit !== s.indexedCommit ? ` (attempted ${s.attemptedCommit})` : ''}`,
  );
  print(
    `  holds     ${plural(c.documents, 'document')}, ${plural(c.folders, 'folder')}, ${plural(c.sections, 'section')}, ${plural(c.cards, 'card')}, ${plural(c.links, 'link')}, ${c.broken} broken${c.skipped ? `, ${c.skipped} left out` : ''}`,
  );
  s.leftOut.forEach((f, i) => {
    print(`  ${i === 0 ? 'left out ' : '         '} ${oneLine(f.path)} (${f.reason})`);
  });
  if (c.skipped > s.leftOut.length && s.leftOut.length > 0)
    print(`            and ${plural(c.skipped - s.leftOut.length, 'more file')}`);
}

/** Runs one operation for a subcommand and prints its JSON, or the person's view of it. */
function act<O extends Operation>(
  program: Command,
  group: Command,
  op: O,
  input: (opts: Json) => Record<string, unknown>,
  show: (out: OutputOf<O>) => void,
  opts: Json,
): Promise<void> {
  return withEngine(program, async (engine: Engine) => {
    const out = await run(memberContext(engine, 'cli'), op, input(opts));
    if (opts.json || group.opts().json) printJson(out);
    else show(out);
  });
}

export function registerTree(program: Command): void {
  const tree = program.command('tree').description('Connected Markdown repositories and their tree index');
  const sub = (name: string, op: Operation) =>
    tree.command(name).description(op.summary).option('--json', 'print JSON');
  const withTree = (c: Command) => c.option('--tree <id>', 'which connected repository (when several are)');

  sub('connect', TreesConnect)
    .argument('<folder>', 'a Git repository or a plain folder')
    .option('--branch <branch>', 'the branch to follow (default: the current one)')
    .option('--scope <scope>', 'org, team:<id> or user:<id> (default: org)')
    .action((folder: string, opts: Json & { branch?: string; scope?: string }) =>
      act(
        program,
        tree,
        TreesConnect,
        () => ({ folder, branch: opts.branch, scope: opts.scope }),
        printSource,
        opts,
      ),
    );
  sub('list', TreesList).action((opts: Json) =>
    act(
      program,
      tree,
      TreesList,
      () => ({}),
      (out) => {
        if (out.trees.length === 0)
          print('No repository is connected: `brain tree connect <folder>` connects one.');
        for (const s of out.trees) printSource(s);
      },
      opts,
    ),
  );
  for (const [name, op] of [
    ['status', TreesStatus],
    ['rebuild', TreesRebuild],
  ] as const) {
    withTree(sub(name, op)).action((opts: Json) =>
      act(program, tree, op, (o) => ({ tree: o.tree }), printSource, opts),
    );
  }
  withTree(sub('disconnect', TreesDisconnect)).action((opts: Json) =>
    act(
      program,
      tree,
      TreesDisconnect,
      (o) => ({ tree: o.tree }),
      (out) => print(`Disconnected ${out.disconnected}.`),
      opts,
    ),
  );
  withTree(sub('show', TreesTree))
    .argument('[node]', 'a node id (default: the root)')
    .option('--depth <n>', '1, or 2 for the first 20 grandchildren too')
    .option('--offset <n>', 'skip this many children')
    .option('--limit <n>', 'at most this many children (default 50)')
    .action((node: string | undefined, opts: Json & { depth?: string; offset?: string; limit?: string }) =>
      act(
        program,
        tree,
        TreesTree,
        (o) => ({
          tree: o.tree,
          node,
          depth: optionalNumber(opts.depth),
          offset: optionalNumber(opts.offset),
          limit: optionalNumber(opts.limit),
        }),
        (out) => {
          print([...out.breadcrumb.map((b) => b.title), out.node.title].map(oneLine).join(' › '));
          if (out.node.summary) print(`  ${out.node.summary}`);
          for (const c of out.children) {
            print(
              `${c.kind === 'folder' ? '▸' : '·'} ${oneLine(c.id)}  ${oneLine(c.title)}${c.status ? ` [${c.status}]` : ''}`,
            );
            if (c.summary) print(`    ${c.summary}`);
          }
          if (out.nextOffset !== null)
            print(`… ${out.total - out.nextOffset} more (--offset ${out.nextOffset})`);
        },
        opts,
      ),
    );
  withTree(sub('read', TreesRead))
    .argument('<node>', 'a node id')
    .option('--scope <scope>', 'auto, subtree or node')
    .option('--from-line <n>', 'start at this line')
    .action((node: string, opts: Json & { scope?: string; fromLine?: string }) =>
      act(
        program,
        tree,
        TreesRead,
        (o) => ({
          tree: o.tree,
          node,
          scope: opts.scope,
          fromLine: optionalNumber(opts.fromLine),
        }),
        (out) => {
          const c = out.citation;
          print(`${oneLine(c.path)}:${c.lineStart}-${c.lineEnd} @ ${c.commit}`);
          for (const [i, l] of out.text.split('\n').entries())
            print(`${String(c.lineStart + i).padStart(5)}  ${l}`);
          if (out.truncated)
            print(
              out.nextLine === null
                ? `… cut here: line ${c.lineEnd} goes on past what one answer holds`
                : `… cut here: --from-line ${out.nextLine}`,
            );
        },
        opts,
      ),
    );
  withTree(sub('lookup', TreesLookup))
    .argument('<query>', 'a reference id, node id or path')
    .action((query: string, opts: Json) =>
      act(
        program,
        tree,
        TreesLookup,
        (o) => ({ tree: o.tree, query }),
        (out) => {
          if (out.matches.length === 0) print(`Nothing in the tree is named ${query}.`);
          for (const m of out.matches) print(`${oneLine(m.node.id)}  ${oneLine(m.node.title)}`);
        },
        opts,
      ),
    );
  withTree(sub('grep', TreesGrep))
    .argument('<text...>', 'every word, in any order (quote it for an exact phrase)')
    .option('--under <node>', 'only under this node')
    .option('--case', 'match case')
    .action((words: string[], opts: Json & { under?: string; case?: boolean }) =>
      act(
        program,
        tree,
        TreesGrep,
        (o) => ({ tree: o.tree, text: words.join(' '), under: opts.under, ignoreCase: !opts.case }),
        (out) => {
          for (const m of out.matches)
            print(`${oneLine(m.path)}:${m.line}  ${m.text.trim()}  (${oneLine(m.node)})`);
          if (out.matches.length === 0) print('No line holds every word.');
          if (out.truncated) print('… more lines match: narrow it with --under or more words.');
        },
        opts,
      ),
    );
  withTree(sub('backlinks', TreesBacklinks))
    .argument('<node>', 'a page, heading or card')
    .option('--offset <n>', 'skip this many')
    .option('--limit <n>', 'at most this many (default 20)')
    .action((node: string, opts: Json & { offset?: string; limit?: string }) =>
      act(
        program,
        tree,
        TreesBacklinks,
        (o) => ({
          tree: o.tree,
          node,
          offset: optionalNumber(opts.offset),
          limit: optionalNumber(opts.limit),
        }),
        (out) => {
          if (out.total === 0) print(`Nothing links to ${node}.`);
          for (const b of out.items) print(`${oneLine(b.node)} → ${oneLine(b.target)} (${b.linkKind})`);
          if (out.nextOffset !== null)
            print(`… ${out.total - out.nextOffset} more (--offset ${out.nextOffset})`);
        },
        opts,
      ),
    );
  withTree(sub('changes', TreesChanges))
    .requiredOption(
      '--since <commit>',
      'an earlier commit: a full or abbreviated hash (such as a citation’s), or a name such as HEAD~1 or a branch',
    )
    .option('--under <node>', 'only under this node')
    .action((opts: Json & { since: string; under?: string }) =>
      act(
        program,
        tree,
        TreesChanges,
        (o) => ({ tree: o.tree, since: opts.since, under: opts.under }),
        (out) => {
          print(
            `${out.since.slice(0, 12)} → ${out.commit.slice(0, 12)}: ${plural(out.documents.length, 'document')} changed`,
          );
          for (const d of out.documents)
            print(
              `${d.status.padEnd(8)} ${d.oldPath ? `${oneLine(d.oldPath)} → ` : ''}${oneLine(d.path)}${d.linesAdded === null ? '' : `  +${d.linesAdded} -${d.linesRemoved}`}`,
            );
          for (const n of out.nodes) print(`  changed  ${oneLine(n.node)}  ${oneLine(n.title)}`);
          if (!out.linesKnown)
            print('(some older text is not here: those documents are listed without their sections)');
        },
        opts,
      ),
    );
  withTree(sub('broken', TreesBroken)).action((opts: Json) =>
    act(
      program,
      tree,
      TreesBroken,
      (o) => ({ tree: o.tree }),
      (out) => {
        if (out.links.length === 0) print('No broken links.');
        for (const l of out.links) print(`${oneLine(l.from)} → ${oneLine(l.target)}`);
      },
      opts,
    ),
  );
}
