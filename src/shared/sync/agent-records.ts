/**
 * The records of agent brains as they travel (docs/AGENTS.md [G12], docs/SYNC_SPEC.md [S37]): each
 * is an `item.upsert` of its own storage kind whose `body` holds the record as JSON, parsed by the
 * schemas here on both sides. Replicas keep them in their own tables, never among items.
 * - `agent` (`a_`, in its creator's namespace, source key `agent:<name>`): the agent's state, last
 *   writer wins: tier, the active pointer, the last synthesis, how far it read people's
 *   observations and the comparison set.
 * - `brain` (`b_`, under its agent's id in `file_id`, source key `v<number>`): one immutable version.
 *   Created once: the server keeps the first version of each number and refuses another.
 * - `observation` (`o_`, in its recorder's namespace, source key `observation:<unique>`): one
 *   append-only observation; its agent's id in `file_id` (none for a person's).
 */
import { z } from 'zod';

const iso = z.string().max(40);
const count = z.number().int().nonnegative().nullable();

const AgentRecordSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
    tier: z.enum(['lead', 'default', 'high-volume']),
    active_version: z.number().int().positive().nullable(),
    last_synthesized_at: iso.nullable(),
    human_until: iso.nullable(),
    compare: z
      .object({
        a: z.number().int().positive(),
        b: z.number().int().positive(),
        split: z.number().int().min(1).max(99),
        since: iso,
      })
      .strict()
      .nullable(),
  })
  .strict();
export type AgentRecord = z.infer<typeof AgentRecordSchema>;

const BrainRecordSchema = z
  .object({
    number: z.number().int().positive(),
    parent: z.number().int().positive().nullable(),
    /** The brain as JSON text, exactly as its synthesis wrote it (docs/agent-brain.schema.json). */
    brain: z.string().max(200_000),
    observation_ids: z.array(z.string().regex(/^o_[0-9a-f]{20}$/)).max(1000),
    model: z.string().max(200),
    input_tokens: count,
    output_tokens: count,
    cached_tokens: count,
    cost_usd: z.number().nonnegative().nullable(),
    created_at: iso,
    created_by: z.string().max(200),
  })
  .strict();
export type BrainRecord = z.infer<typeof BrainRecordSchema>;

const ObservationRecordSchema = z
  .object({
    /** The part unique to the one write; the id is made from it ([G1]). */
    key: z.string().min(1).max(100),
    agent: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .nullable(),
    type: z.string().min(1).max(64),
    text: z.string().max(4000).nullable(),
    payload: z.string().max(16_384).nullable(),
    importance: z.number().min(0).max(1),
    user_id: z.string().max(200),
    run_id: z.string().max(500).nullable(),
    created_at: iso,
  })
  .strict();
export type ObservationRecord = z.infer<typeof ObservationRecordSchema>;

const AGENT_RECORD_KINDS = ['agent', 'brain', 'observation'] as const;
export type AgentRecordKind = (typeof AGENT_RECORD_KINDS)[number];

export function isAgentRecordKind(kind: string): kind is AgentRecordKind {
  return (AGENT_RECORD_KINDS as readonly string[]).includes(kind);
}

/** The record an op's body holds, or why it is none (the server refuses it with this reason). */
export function parseAgentRecord(
  kind: AgentRecordKind,
  body: string,
): { ok: true; record: AgentRecord | BrainRecord | ObservationRecord } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: `the body of a ${kind} record is not JSON` };
  }
  const schema =
    kind === 'agent' ? AgentRecordSchema : kind === 'brain' ? BrainRecordSchema : ObservationRecordSchema;
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: `not a ${kind} record: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
  };
}
