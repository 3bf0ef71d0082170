/**
 * The repository tree operations (src/shared/api/ops/trees.ts), as every surface runs them.
 * Connecting and rebuilding build the tree before they answer; the documents become file items of
 * the repository's scope, indexed by a host's background runner or, in a one-shot process, here.
 * Reads on the agent surface number their lines and get the agents' text cap.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type {
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
import { backlinks, brokenLinks, changes, grep, lookup, readNode, treeView } from '../tree/reads.ts';
import {
  type BuildOutcome,
  buildSource,
  connectSource,
  disconnectSource,
  listSources,
  sourceOf,
  tipOf,
} from '../tree/sources.ts';
import { indexFiles } from './files.ts';
import type { CommandContext } from './types.ts';

/** The documents a build stored anew are indexed as files.index indexes (never "every file": none named). */
async function indexAdded(ctx: CommandContext, outcome: BuildOutcome): Promise<void> {
  if (outcome.added.length > 0) await indexFiles(ctx, outcome.added);
}

async function treesConnect(
  ctx: CommandContext,
  input: ParsedInputOf<typeof TreesConnect>,
): Promise<OutputOf<typeof TreesConnect>> {
  const source = await connectSource(ctx.engine, input);
  // Connected before and built at its tip already: nothing to build again.
  if (source.state === 'ready' && (await tipOf(ctx.engine, source)) === source.indexedCommit) return source;
  try {
    const outcome = await buildSource(ctx.engine, source.id);
    await indexAdded(ctx, outcome);
    return outcome.source;
  } catch {
    // The failure is the tree's state (failed, with its reason): connecting itself succeeded.
    return sourceOf(ctx.engine, source.id);
  }
}

async function treesList(ctx: CommandContext, _: ParsedInputOf<typeof TreesList>) {
  return { trees: listSources(ctx.engine) };
}

async function treesStatus(ctx: CommandContext, input: ParsedInputOf<typeof TreesStatus>) {
  return sourceOf(ctx.engine, input.tree);
}

async function treesRebuild(
  ctx: CommandContext,
  input: ParsedInputOf<typeof TreesRebuild>,
): Promise<OutputOf<typeof TreesRebuild>> {
  const outcome = await buildSource(ctx.engine, sourceOf(ctx.engine, input.tree).id, { rebuild: true });
  await indexAdded(ctx, outcome);
  return outcome.source;
}

async function treesDisconnect(ctx: CommandContext, input: ParsedInputOf<typeof TreesDisconnect>) {
  return disconnectSource(ctx.engine, input.tree);
}

async function treesTree(ctx: CommandContext, input: ParsedInputOf<typeof TreesTree>) {
  return treeView(ctx.engine, input);
}

/** Agents read numbered lines (they cite only the lines that hold the answer) within their cap. */
async function treesRead(ctx: CommandContext, input: ParsedInputOf<typeof TreesRead>) {
  const agent = ctx.surface === 'agent';
  return readNode(ctx.engine, {
    ...input,
    lineNumbers: agent,
    maxChars: input.maxChars ?? (agent ? 24_000 : 200_000),
  });
}

async function treesLookup(ctx: CommandContext, input: ParsedInputOf<typeof TreesLookup>) {
  return lookup(ctx.engine, input);
}

async function treesGrep(ctx: CommandContext, input: ParsedInputOf<typeof TreesGrep>) {
  return grep(ctx.engine, input);
}

async function treesBacklinks(ctx: CommandContext, input: ParsedInputOf<typeof TreesBacklinks>) {
  return backlinks(ctx.engine, input);
}

async function treesBroken(ctx: CommandContext, input: ParsedInputOf<typeof TreesBroken>) {
  return brokenLinks(ctx.engine, input);
}

async function treesChanges(ctx: CommandContext, input: ParsedInputOf<typeof TreesChanges>) {
  return changes(ctx.engine, input);
}

export const treeHandlers = {
  'trees.connect': treesConnect,
  'trees.list': treesList,
  'trees.status': treesStatus,
  'trees.rebuild': treesRebuild,
  'trees.disconnect': treesDisconnect,
  'trees.tree': treesTree,
  'trees.read': treesRead,
  'trees.lookup': treesLookup,
  'trees.grep': treesGrep,
  'trees.backlinks': treesBacklinks,
  'trees.broken': treesBroken,
  'trees.changes': treesChanges,
};
