/**
 * The export folder's layout ([N16] in docs/PACKAGING.md): plain files a person can open and JSON
 * lines a program can read, without Org Brain. Written by export.ts, read back by import.ts.
 */
import { z } from 'zod';
import { AGENT_NAME_RE, AGENT_TIERS } from '#shared/api/ops/agents.ts';
import { idPattern } from '#shared/ids.ts';

export const FORMAT = 'org-brain-export';
export const FORMAT_VERSION = 1;

export const FILES = {
  manifest: 'manifest.json',
  readme: 'README.txt',
  items: 'items.jsonl',
  edges: 'edges.jsonl',
  facts: 'facts.jsonl',
  teams: 'teams.jsonl',
  agents: 'agents.jsonl',
  agentVersions: 'agent_versions.jsonl',
  observations: 'observations.jsonl',
  runs: 'runs.jsonl',
} as const;

/** Live files' originals; earlier versions and removed files under `files/retired`. */
export const FILES_DIR = 'files';
export const RETIRED_DIR = 'files/retired';
export const NOTES_DIR = 'notes';

const text = z.string();
const maybe = z.string().nullable();
const int = z.number().int();

/** One line of items.jsonl: an item row as the database keeps it, less its local bookkeeping. */
export const ItemLineSchema = z
  .object({
    id: z.string().min(1).max(200),
    storage_kind: z.enum(['file', 'section', 'note', 'entity']),
    kind: text,
    label: text,
    summary: maybe,
    body: text,
    source_key: text,
    canonical_type: maybe,
    canonical_value: maybe,
    blob: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    format: maybe,
    size: int.nullable(),
    file_id: maybe,
    ordinal: int.nullable(),
    locator: maybe,
    indexed: int,
    index_error: maybe,
    /** docs/OCR.md [O9]; absent in exports made before it was kept. */
    read_by_ocr: int.optional(),
    health: maybe,
    scope: text,
    origin_actor: text,
    origin_source: text,
    origin_run: maybe,
    origin_at: text,
    occurred_at: maybe,
    retired_at: maybe,
    superseded_by: maybe,
    created_at: text,
    updated_at: text,
    version: int,
    /** A file's original, relative to the export folder (files with a blob only). */
    path: z.string().optional(),
  })
  .strict();
export type ItemLine = z.infer<typeof ItemLineSchema>;

export const EdgeLineSchema = z
  .object({
    id: z.string().min(1).max(400),
    type: text,
    from_id: text,
    to_id: text,
    /** The edge's props as JSON (a fact's statement, attribute, validAt, quote, span). */
    props: z.unknown(),
    /** Props that are not JSON, exactly as kept (then `props` is null). */
    props_text: z.string().optional(),
    origin_actor: text,
    origin_source: text,
    origin_run: maybe,
    origin_at: text,
    retired_at: maybe,
  })
  .strict();
export type EdgeLine = z.infer<typeof EdgeLineSchema>;

/** An id of an agent record (src/shared/ids.ts `idPattern`): its prefix and 20 hex digits. */
const RECORD_NAMES = { agent: 'an agent', brain: 'a brain version', observation: 'an observation' } as const;
const recordId = (kind: keyof typeof RECORD_NAMES) =>
  z.string().regex(idPattern(kind), `the id of ${RECORD_NAMES[kind]}: its prefix and 20 hex digits`);
const agentName = z.string().regex(AGENT_NAME_RE, 'an agent name: 1 to 64 letters, digits, . _ -');
const member = z.string().min(1).max(200);
/** At most `max` characters as SQLite counts them (code points), as the tables' CHECKs do. */
const chars = (min: number, max: number) =>
  z.string().refine((s) => {
    const n = [...s].length;
    return n >= min && n <= max;
  }, `${min} to ${max} characters`);

/**
 * One line of agents.jsonl (docs/AGENTS.md [G3], [G12]): an agent row less its local bookkeeping
 * (the workspace, the synthesis claim and its lease).
 */
export const AgentLineSchema = z
  .object({
    id: recordId('agent'),
    name: agentName,
    creator: member,
    tier: z.enum(AGENT_TIERS),
    scope: text,
    active_version: int.min(1).nullable(),
    last_synthesized_at: maybe,
    human_until: maybe,
    compare_a: int.min(1).nullable(),
    compare_b: int.min(1).nullable(),
    compare_split: int.min(1).max(99).nullable(),
    compare_since: maybe,
    created_at: text,
    updated_at: text,
  })
  .strict();
export type AgentLine = z.infer<typeof AgentLineSchema>;

/**
 * One line of agent_versions.jsonl ([G4]): an immutable brain version. `brain` and
 * `observation_ids` as JSON, or as `brain_text` / `observation_ids_text` when the kept text would
 * not read back the same (then the JSON field is null).
 */
export const AgentVersionLineSchema = z
  .object({
    id: recordId('brain'),
    agent_id: recordId('agent'),
    agent: agentName,
    number: int.min(1),
    parent: int.min(1).nullable(),
    brain: z.unknown(),
    brain_text: z.string().optional(),
    observation_ids: z.unknown(),
    observation_ids_text: z.string().optional(),
    model: text,
    input_tokens: int.nullable(),
    output_tokens: int.nullable(),
    cached_tokens: int.nullable(),
    cost_usd: z.number().nullable(),
    created_at: text,
    created_by: member,
  })
  .strict();
export type AgentVersionLine = z.infer<typeof AgentVersionLineSchema>;

/** One line of observations.jsonl ([G1]): `payload` as JSON, or `payload_text` as kept. */
export const ObservationLineSchema = z
  .object({
    id: recordId('observation'),
    agent: agentName.nullable(),
    agent_id: recordId('agent').nullable(),
    /** The part unique to the one write its id is made from. */
    key: z.string().min(1).max(200),
    type: chars(1, 64),
    text: chars(0, 4000).nullable(),
    payload: z.unknown(),
    payload_text: z.string().optional(),
    importance: z.number().min(0).max(1),
    scope: text,
    user_id: member,
    run_id: maybe,
    created_at: text,
    synthesized_at: maybe,
    synthesized_version: int.min(1).nullable(),
  })
  .strict();
export type ObservationLine = z.infer<typeof ObservationLineSchema>;

/** One line of runs.jsonl: a run the member ended ([G7]), with its work products. */
export const RunLineSchema = z
  .object({
    id: z.string().min(1).max(400),
    user_id: member,
    agent: text,
    status: z.enum(['succeeded', 'blocked', 'failed', 'cancelled']),
    work_products: text,
    writeback_state: z.enum(['pending', 'running', 'done', 'skipped']),
    started_at: maybe,
    ended_at: text,
    updated_at: text,
    brain_version: int.min(1).nullable(),
    agent_id: maybe,
  })
  .strict();
export type RunLine = z.infer<typeof RunLineSchema>;

export const TeamLineSchema = z.object({ id: z.string().min(1).max(64), name: text }).strict();

export const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int(),
  exportedAt: z.string(),
  workspace: z.string().min(1).max(200),
  /** A member id, as scopes spell it (src/engine/scope.ts): their `user:<id>` becomes the importer's. */
  member: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/, 'a member id: 1 to 64 letters, digits, . _ @ -'),
  counts: z.record(z.string(), z.number()),
});
export type Manifest = z.infer<typeof ManifestSchema>;

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_NAME_BYTES = 180;

/**
 * A name any file system takes: no separators, control or reserved characters, not `.`/`..`, no
 * Windows device name, at most 180 bytes of UTF-8 with the extension kept.
 */
export function safeFileName(name: string, fallback = 'file'): string {
  let out = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/[. ]+$/, '')
    .trim();
  if (out === '' || /^\.+$/.test(out)) out = fallback;
  if (RESERVED.test(out)) out = `_${out}`;
  if (Buffer.byteLength(out) > MAX_NAME_BYTES) {
    const dot = out.lastIndexOf('.');
    const ext = dot > 0 && out.length - dot <= 12 ? out.slice(dot) : '';
    let stem = out.slice(0, out.length - ext.length);
    while (Buffer.byteLength(stem + ext) > MAX_NAME_BYTES) stem = stem.slice(0, -1);
    out = stem + ext;
  }
  return out;
}

/** Gives each name once in a folder (case-insensitively, as macOS and Windows compare): `a (2).md`. */
export class NameBook {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

export const README_TEXT = `This folder is an export of an Org Brain workspace: everything one member could see.
It is readable without Org Brain.

  manifest.json  when, from which workspace, by whom, and how many of each
  files/         the original files as they were added (files/retired: earlier versions
                 and removed files the workspace still kept)
  notes/         each note's text, as Markdown
  items.jsonl    one JSON object per line for every file, section, note and entity:
                 id, kind, label, text (body), scope (who may see it), origin (who or what
                 wrote it, when, in which run), and for files "path", the original in files/
  edges.jsonl    one JSON object per line for every link between two items (mentions,
                 facts, references), with its origin; "props" holds a fact's statement
  facts.jsonl    the facts in plain words: entity, statement, attribute, since when, source
  teams.jsonl    the teams the member belonged to
  agents.jsonl   one JSON object per line for every agent whose brain the member could
                 see: id, name, creator, tier, scope, the active version and any comparison
  agent_versions.jsonl
                 every version of those agents' brains, oldest first per agent: number,
                 parent, the brain itself (JSON), the observations it read, model, tokens, cost
  observations.jsonl
                 what agents (and people, human_* types) recorded for those brains, in scopes
                 the member could see: type, text or payload, importance, scope, who, run
  runs.jsonl     the member's own agent runs: agent, status, work products, the brain
                 version read, the write-back state

\`brain import <this folder>\` restores it into an empty workspace with the same ids.
`;
