/**
 * The brain mounts into the next run (docs/AGENTS.md [G7], [G9]): which version a run is served
 * (the active one, or one of two compared versions chosen from the run id), the brain as the MCP
 * server serves it (the resource, `brain_agent_brain`, `brain_context`'s first answer), its compact
 * rendering within the injection's cap (whole entries only), and the version a run records at its
 * end. The run's state (what was served, whether the first context answer went out) lives in the
 * MCP server's run context (src/hosts/mcp/context.ts) and reaches commands as `agent.mount`.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/driver.ts';
import { canSee, visibleScopes } from '../scope.ts';
import { type AgentRow, findAgent, getAgentById, getVersion, parseBrain } from './agents.ts';
import { type Brain, KNOWN_SECTIONS } from './brain-schema.ts';

/** The agent row with the comparison columns of migration 0021-agent-runs-brain. */
/** What one run of the MCP server remembers about its brain ([G7]). */
export type RunMount = {
  /** The version served to this run (undefined: nothing served yet; null: served "no brain yet"). */
  served: number | null | undefined;
  /** The agent whose brain was served ([G12]: the member's own agent of the name, else one shared with them). */
  agentId?: string;
  /** Whether `brain_context` already answered once in this run (only the first answer holds the brain). */
  contextAnswered: boolean;
};

export function newRunMount(): RunMount {
  return { served: undefined, contextAnswered: false };
}

/**
 * [G9] The compared version for a run: the first 4 bytes of sha256(run id) as a big-endian uint32,
 * modulo 100, below `split` → a, else b. The same run id always gets the same version.
 */
export function comparedVersionFor(runId: string, a: number, b: number, split: number): number {
  const n = createHash('sha256').update(runId, 'utf8').digest().readUInt32BE(0);
  return n % 100 < split ? a : b;
}

/** The comparison set on an agent, or null. */
export function comparisonOf(agent: AgentRow): { a: number; b: number; split: number } | null {
  const c = agent;
  if (c.compare_a == null || c.compare_b == null || c.compare_split == null) return null;
  return { a: c.compare_a, b: c.compare_b, split: c.compare_split };
}

/** The version a run of this agent is served: a compared one while a comparison is set, else the active one. */
function versionForRun(agent: AgentRow, runId: string): number | null {
  const c = comparisonOf(agent);
  if (c) return comparedVersionFor(runId, c.a, c.b, c.split);
  return agent.active_version;
}

export type MountedBrain = { agent: string; version: number; brain: Brain };

/**
 * The brain `user`'s run `runId` of agent `name` is served, remembered in `mount` so every read of
 * the run gets the same version; null ("no brain yet") when the agent has no version, or no row
 * the member can see.
 */
export function serveBrain(
  db: Db,
  who: { workspaceId: string; user: string; agent: string; run: string },
  mount: RunMount,
): MountedBrain | null {
  const agent =
    (mount.agentId ? getAgentById(db, mount.agentId) : undefined) ??
    findAgent(db, who.workspaceId, who.user, who.agent);
  if (!agent || !canSee(visibleScopes(db, who.user), agent.scope)) {
    if (mount.served === undefined) mount.served = null;
    return null;
  }
  const number = mount.served ?? versionForRun(agent, who.run);
  const row = number === null ? undefined : getVersion(db, agent, number);
  if (!row) {
    if (mount.served === undefined) mount.served = null;
    return null;
  }
  mount.served = row.number;
  mount.agentId = agent.id;
  return { agent: agent.name, version: row.number, brain: parseBrain(row) };
}

/**
 * The version a run records at its end ([G7]): the one its server served it (null when it served
 * "no brain yet"); if nothing was served, the one it would have been served now (the active
 * version, or its compared one); else null.
 */
export function versionAtRunEnd(
  db: Db,
  who: { workspaceId: string; user: string },
  agentName: string,
  runId: string,
  mount?: RunMount,
): { agentId: string | null; version: number | null } {
  const agent =
    (mount?.agentId ? getAgentById(db, mount.agentId) : undefined) ??
    findAgent(db, who.workspaceId, who.user, agentName);
  // Served, or served "no brain yet".
  if (mount && mount.served !== undefined) return { agentId: agent?.id ?? null, version: mount.served };
  if (!agent) return { agentId: null, version: null };
  const number = versionForRun(agent, runId);
  return { agentId: agent.id, version: number !== null && getVersion(db, agent, number) ? number : null };
}

/** A brain as whole entries to render: the summary, then each section's entries. */
export type BrainBlock = {
  /** The fence's id attribute: `brain:<agent>:v<version>`. */
  id: string;
  /** The first line inside the fence. */
  title: string;
  summary: string | null;
  sections: { name: string; entries: string[] }[];
};

function sectionOrder(brain: Brain): string[] {
  const names = Object.keys(brain.sections).filter((s) => (brain.sections[s]?.length ?? 0) > 0);
  const known = KNOWN_SECTIONS.filter((s) => names.includes(s)) as string[];
  return [...known, ...names.filter((s) => !known.includes(s))];
}

export function brainBlock(mounted: MountedBrain): BrainBlock {
  const { brain } = mounted;
  return {
    id: `brain:${mounted.agent}:v${mounted.version}`,
    title: `Your agent brain (${mounted.agent}, version ${mounted.version}): what earlier runs learned.`,
    summary: brain.summary?.trim() || null,
    sections: sectionOrder(brain).map((name) => ({
      name,
      entries: (brain.sections[name] ?? []).map((e) => e.text),
    })),
  };
}

/** Every text of a block: the boundary is drawn against these (docs/SECURITY.md [F1]). */
export function blockTexts(block: BrainBlock): string[] {
  return [
    block.id,
    block.title,
    block.summary ?? '',
    ...block.sections.flatMap((s) => [s.name, ...s.entries]),
  ];
}

/**
 * The block's text within `maxChars`, truncated by whole entries ([G7]): the summary first when it
 * fits, then entries taken round-robin across sections (each section's first, then each one's
 * second…) while they fit, shown grouped by section in the brain's order. Answers the text and how
 * many entries it holds of how many.
 */
export function renderBrainBlock(
  block: BrainBlock,
  maxChars: number,
): { text: string; shown: number; total: number } {
  const total = block.sections.reduce((n, s) => n + s.entries.length, 0);
  const head = block.title;
  let used = head.length;
  if (used > maxChars) return { text: '', shown: 0, total };
  const summary = block.summary && used + block.summary.length + 1 <= maxChars ? block.summary : null;
  if (summary) used += summary.length + 1;
  const taken = block.sections.map(() => 0);
  const headerCost = (name: string) => `\n## ${name}`.length;
  let shown = 0;
  let progress = true;
  for (let round = 0; progress; round++) {
    progress = false;
    for (const [i, s] of block.sections.entries()) {
      const entry = s.entries[round];
      if (entry === undefined || taken[i] !== round) continue;
      const cost = `\n- ${entry}`.length + (round === 0 ? headerCost(s.name) : 0);
      if (used + cost > maxChars) continue;
      used += cost;
      taken[i] = round + 1;
      shown++;
      progress = true;
    }
  }
  const lines = [head];
  if (summary) lines.push(summary);
  for (const [i, s] of block.sections.entries()) {
    const n = taken[i] ?? 0;
    if (n === 0) continue;
    lines.push(`## ${s.name}`, ...s.entries.slice(0, n).map((e) => `- ${e}`));
  }
  return { text: lines.join('\n'), shown, total };
}
