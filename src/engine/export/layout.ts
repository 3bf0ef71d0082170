/**
 * The export folder's layout ([N16] in docs/PACKAGING.md): plain files a person can open and JSON
 * lines a program can read, without Org Brain. Written by export.ts, read back by import.ts.
 */
import { z } from 'zod';

export const FORMAT = 'org-brain-export';
export const FORMAT_VERSION = 1;

export const FILES = {
  manifest: 'manifest.json',
  readme: 'README.txt',
  items: 'items.jsonl',
  edges: 'edges.jsonl',
  facts: 'facts.jsonl',
  teams: 'teams.jsonl',
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

export const TeamLineSchema = z.object({ id: z.string().min(1).max(64), name: text }).strict();

export const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int(),
  exportedAt: z.string(),
  workspace: z.string(),
  member: z.string(),
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

\`brain import <this folder>\` restores it into an empty workspace with the same ids.
`;
