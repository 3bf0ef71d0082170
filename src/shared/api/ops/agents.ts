/**
 * Agent brains, first slice: observations, the cheap write path (docs/AGENTS.md [G1], [G2]). An
 * agent records what it learned with `brain_observe` (its name and run come from the MCP server,
 * never from the arguments); a script names its agent with `brain observe --agent`; a person's
 * feedback is an observation of a `human_*` type with no agent (the app, `brain observe`).
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

export const OBSERVATION_LIMITS = {
  typeChars: 64,
  textChars: 4000,
  /** The payload as JSON, in UTF-8 bytes. */
  payloadBytes: 16_384,
  agentChars: 64,
  runChars: 100,
  listDefault: 50,
  listMax: 200,
  defaultImportance: 0.5,
} as const;

/** The prefix of a person's observation types ([G2]). */
export const HUMAN_TYPE_PREFIX = 'human_';

const L = OBSERVATION_LIMITS;

export const ObservationSchema = z.object({
  id: z.string(),
  /** Null for a person's `human_*` observation. */
  agent: z.string().nullable(),
  type: z.string(),
  text: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()).nullable(),
  importance: z.number(),
  scope: z.string(),
  /** The acting member. */
  user: z.string(),
  run: z.string().nullable(),
  createdAt: z.string(),
  synthesizedAt: z.string().nullable(),
  synthesizedVersion: z.number().nullable(),
});

// The fields every surface takes; the app and the command line also take `run` (docs/AGENTS.md [G10]).
const observationFields = {
  type: z
    .string()
    .trim()
    .min(1)
    .max(L.typeChars)
    .describe('what kind of observation: codebase_pattern, gotcha, decision… (a person: human_…)'),
  text: z.string().trim().min(1).max(L.textChars).optional().describe('what was observed'),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(`structured details as a JSON object (at most ${L.payloadBytes} bytes)`),
  importance: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('0–1: 0.7 and more matters, 0.3 and less is noise (default 0.5)'),
};

const ObservationsAddInput = z
  .object({
    ...observationFields,
    run: z
      .string()
      .trim()
      .min(1)
      .max(L.runChars)
      .optional()
      .describe("a person's feedback on this run (human_thumbs_up, human_thumbs_down, human_feedback)"),
  })
  .strict();

export const ObservationsAdd = defineOperation({
  name: 'observations.add',
  summary: 'Record an observation (append-only) for the next synthesis of an agent brain',
  input: ObservationsAddInput,
  // An agent never names a run: its run is its server's ([G2], [G10]). The same fields less `run`.
  inputFor: { agent: z.object(observationFields).strict() as unknown as typeof ObservationsAddInput },
  output: z.object({ observation: ObservationSchema }),
  mutates: true,
  tool: {
    name: 'brain_observe',
    description:
      'Record something worth remembering from this run for your own brain: a codebase pattern, a gotcha, a ' +
      "decision, a dead end. Cheap and append-only: don't weigh whether it is worth it, just record it. Give a " +
      `type (free text, e.g. codebase_pattern, gotcha, decision; not human_…, those are people's), text (at most ` +
      `${L.textChars} characters) or a JSON payload, and importance 0–1 (default 0.5; 0.7 and more matters, 0.3 ` +
      'and less is noise). Your agent name, this run and your member are recorded with it; it is kept in your ' +
      'user scope. Your brain is synthesized from these later.',
  },
});

export const ObservationsList = defineOperation({
  name: 'observations.list',
  summary: 'Observations you can see, newest first',
  input: z
    .object({
      agent: z.string().trim().min(1).max(L.agentChars).optional().describe("one agent's observations"),
      type: z.string().trim().min(1).max(L.typeChars).optional().describe('one type'),
      min_importance: z.number().min(0).max(1).optional().describe('importance at least this'),
      unsynthesized: z.boolean().optional().describe('only those no synthesis has read yet'),
      limit: z.number().int().min(1).max(L.listMax).optional(),
      offset: z.number().int().min(0).optional(),
    })
    .strict(),
  output: z.object({ observations: z.array(ObservationSchema), total: z.number() }),
  mutates: false,
});

// Agent brains, second slice: synthesis, versions, the pointer, rollback and pruning
// (docs/AGENTS.md [G3]–[G6]).

/** An agent's name (what `brain mcp --agent` or the MCP client says), everywhere it is checked. */
export const AGENT_NAME_RE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Names no agent may take: a run a member ends on the app or the command line is recorded under
 * its surface, `app` or `cli`, and those names mark it as the member's (docs/AGENTS.md [G2];
 * runsEnd in src/engine/commands/graph.ts).
 */
const RESERVED_AGENT_NAMES = ['app', 'cli'] as const;

function isReservedAgentName(name: string): boolean {
  return (RESERVED_AGENT_NAMES as readonly string[]).includes(name);
}

/** Why a reserved name is refused, for every surface that takes an agent's name. */
const RESERVED_AGENT_NAME_MESSAGE = `${RESERVED_AGENT_NAMES.join(' and ')} are reserved (they mark a run a member ended on the app or the command line); choose another agent name`;

/**
 * Why `name` cannot be an agent's, or null: the one check the engine and `brain mcp --agent` make
 * of a name they are given (the contract's AgentName says the same).
 */
export function agentNameProblem(name: string): string | null {
  if (!AGENT_NAME_RE.test(name)) return `1 to 64 letters, digits, . _ - (got "${name.slice(0, 80)}")`;
  return isReservedAgentName(name) ? RESERVED_AGENT_NAME_MESSAGE : null;
}

export const AgentName = z
  .string()
  .trim()
  .regex(AGENT_NAME_RE, 'an agent name: 1 to 64 letters, digits, . _ -')
  .refine((name) => !isReservedAgentName(name), RESERVED_AGENT_NAME_MESSAGE)
  .describe('the agent (the name it runs under)');

export const AGENT_TIERS = ['lead', 'default', 'high-volume'] as const;

const BrainEntryOut = z.object({ text: z.string(), observation_ids: z.array(z.string()) });
const BrainOutSchema = z.object({
  version: z.number().optional(),
  summary: z.string().optional(),
  sections: z.record(z.string(), z.array(BrainEntryOut)),
});

const AgentVersionSchema = z.object({
  number: z.number(),
  parent: z.number().nullable(),
  observationIds: z.array(z.string()),
  model: z.string(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  cachedTokens: z.number().nullable(),
  /** Null: the model has no price in the table (never a guess). */
  costUsd: z.number().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
});

const AgentSummarySchema = z.object({
  name: z.string(),
  tier: z.enum(AGENT_TIERS),
  scope: z.string(),
  activeVersion: z.number().nullable(),
  versions: z.number(),
  /** Unsynthesized observations of importance at least the floor, against the tier's threshold. */
  waiting: z.number(),
  threshold: z.number(),
  lastSynthesizedAt: z.string().nullable(),
  /** The cost of the versions made in the last 7 days; null when none had a price. */
  costThisWeekUsd: z.number().nullable(),
});

const SynthesisOutcomeSchema = z.object({
  agent: z.string(),
  state: z.enum(['synthesized', 'skipped', 'failed']),
  reason: z.string().nullable(),
  version: AgentVersionSchema.nullable(),
  dropped: z.number(),
  pruned: z.number(),
});

export const AgentsList = defineOperation({
  name: 'agents.list',
  summary: 'Agents you can see: tier, active version, observations waiting, last synthesis, cost',
  input: z.object({}).strict(),
  output: z.object({ agents: z.array(AgentSummarySchema) }),
  mutates: false,
});

export const AgentsShow = defineOperation({
  name: 'agents.show',
  summary: "An agent's active brain and its version",
  input: z.object({ agent: AgentName }).strict(),
  output: z.object({
    agent: AgentSummarySchema,
    brain: BrainOutSchema.nullable(),
    version: AgentVersionSchema.nullable(),
  }),
  mutates: false,
});

export const AgentsVersions = defineOperation({
  name: 'agents.versions',
  summary: "An agent's brain versions, newest first (the active one marked)",
  input: z.object({ agent: AgentName }).strict(),
  output: z.object({
    agent: z.string(),
    activeVersion: z.number().nullable(),
    versions: z.array(AgentVersionSchema),
  }),
  mutates: false,
});

const DiffSection = z.object({
  section: z.string(),
  added: z.array(BrainEntryOut),
  removed: z.array(BrainEntryOut),
});

export const AgentsDiff = defineOperation({
  name: 'agents.diff',
  summary: 'What changed between two brain versions, per section',
  input: z
    .object({
      agent: AgentName,
      from: z.number().int().min(1).describe('the older version number'),
      to: z.number().int().min(1).describe('the newer version number'),
    })
    .strict(),
  output: z.object({ agent: z.string(), from: z.number(), to: z.number(), sections: z.array(DiffSection) }),
  mutates: false,
});

export const AgentsRollback = defineOperation({
  name: 'agents.rollback',
  summary: "Move an agent's active pointer to an earlier (or later) version; versions never change",
  input: z.object({ agent: AgentName, to: z.number().int().min(1).describe('the version number') }).strict(),
  output: z.object({ agent: z.string(), activeVersion: z.number(), previous: z.number().nullable() }),
  mutates: true,
});

export const AgentsSynthesize = defineOperation({
  name: 'agents.synthesize',
  summary: "Synthesize an agent's brain now if it is due (force: even when it is not)",
  input: z
    .object({
      agent: AgentName,
      force: z.boolean().optional().describe('skip the threshold and the hourly cap'),
    })
    .strict(),
  output: SynthesisOutcomeSchema,
  mutates: true,
});

export const AgentsSet = defineOperation({
  name: 'agents.set',
  summary: "Set an agent's tier (its synthesis threshold: lead 5, default 20, high-volume 90)",
  input: z.object({ agent: AgentName, tier: z.enum(AGENT_TIERS) }).strict(),
  output: z.object({ agent: AgentSummarySchema }),
  mutates: true,
});

export const AgentsPrune = defineOperation({
  name: 'agents.prune',
  summary: 'Prune observations: synthesized ones under 0.3 importance, unsynthesized under 0.2 after 90 days',
  input: z.object({}).strict(),
  output: z.object({ pruned: z.number(), synthesized: z.number(), stale: z.number() }),
  mutates: true,
});

const PriceInput = z
  .object({
    input: z.number().min(0).describe('USD per 1M prompt tokens'),
    output: z.number().min(0).describe('USD per 1M completion tokens'),
    cached: z.number().min(0).describe('USD per 1M cached prompt tokens'),
  })
  .strict();

const AgentNumbers = {
  minSynthesisImportance: z.number(),
  pruneImportance: z.number(),
  staleDays: z.number(),
};

export const AgentsConfig = defineOperation({
  name: 'agents.config',
  summary:
    "Agent brains' settings: the price table synthesis costs are estimated from, and the pruning numbers",
  input: z
    .object({
      prices: z
        .record(z.string().trim().min(1).max(200), PriceInput)
        .optional()
        .describe('the whole price table, by model id (replaces the one stored)'),
      min_synthesis_importance: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('synthesis reads observations at least this important (0.2)'),
      prune_importance: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('synthesized observations under this are pruned (0.3)'),
      stale_days: z
        .number()
        .int()
        .min(1)
        .max(36_500)
        .optional()
        .describe('unsynthesized ones under the floor go after this many days (90)'),
    })
    .strict(),
  output: z.object({ prices: z.record(z.string(), PriceInput), ...AgentNumbers }),
  mutates: true,
});

export const AGENT_OPERATIONS = [
  ObservationsAdd,
  ObservationsList,
  AgentsList,
  AgentsShow,
  AgentsVersions,
  AgentsDiff,
  AgentsRollback,
  AgentsSynthesize,
  AgentsSet,
  AgentsPrune,
  AgentsConfig,
] as const;
