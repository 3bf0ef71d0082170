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

export const ObservationsAdd = defineOperation({
  name: 'observations.add',
  summary: 'Record an observation (append-only) for the next synthesis of an agent brain',
  input: z
    .object({
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
    })
    .strict(),
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

export const AGENT_OPERATIONS = [ObservationsAdd, ObservationsList] as const;
