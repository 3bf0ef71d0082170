/**
 * The deterministic audit (no model): after a file is indexed, link mentions of entities the
 * workspace already knows, by any of their aliases, ignoring case, accents and legal suffixes
 * (graph.ts `normaliseName`). Only entities in the section's own scope or in org are looked for,
 * so a private entity's name never seeds a mention elsewhere. Mentions are recorded with
 * `observeMention` (idempotent per span); nothing is ever merged.
 */
import { actorUnder } from '#shared/ids.ts';
import type { Db } from '../db/driver.ts';
import { ENTITY_KINDS, type EntityKind, normaliseName, observeMention } from '../knowledge/graph.ts';
import type { ItemRow } from '../read/items.ts';

type Alias = { tokens: string[]; kind: EntityKind };
type Token = { norm: string; start: number; end: number };

const MIN_ALIAS_CHARS = 3;
const MAX_MENTIONS_PER_SECTION = 200;

function isKind(k: string): k is EntityKind {
  return (ENTITY_KINDS as readonly string[]).includes(k);
}

/** Words of a text with their character offsets, normalised like names (case and accents folded). */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const norm = m[0]
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    out.push({ norm, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

function aliasesFor(db: Db, scope: string): Alias[] {
  const rows = db
    .prepare(
      `SELECT kind, label, body FROM items WHERE storage_kind = 'entity' AND retired_at IS NULL
       AND (scope = 'org' OR scope = ?)`,
    )
    .all(scope) as { kind: string; label: string; body: string }[];
  const seen = new Set<string>();
  const out: Alias[] = [];
  for (const r of rows) {
    if (!isKind(r.kind)) continue;
    for (const name of new Set([r.label, ...r.body.split('\n')])) {
      const n = normaliseName(name, r.kind);
      if (n.length < MIN_ALIAS_CHARS || seen.has(`${r.kind}\0${n}`)) continue;
      seen.add(`${r.kind}\0${n}`);
      out.push({ tokens: n.split(' '), kind: r.kind });
    }
  }
  // Longer names first: "Acme Labs" wins over "Acme" at the same place.
  return out.sort((a, b) => b.tokens.length - a.tokens.length);
}

export type Mention = { start: number; end: number; kind: EntityKind; text: string };

/** Where known aliases occur in the text, whole words only, without overlaps. */
export function findMentions(text: string, aliases: readonly Alias[]): Mention[] {
  const tokens = tokenize(text);
  const taken = new Array<boolean>(tokens.length).fill(false);
  const byFirst = new Map<string, Alias[]>();
  for (const a of aliases) {
    const first = a.tokens[0] ?? '';
    byFirst.set(first, [...(byFirst.get(first) ?? []), a]);
  }
  const out: Mention[] = [];
  for (let i = 0; i < tokens.length && out.length < MAX_MENTIONS_PER_SECTION; i++) {
    const candidates = byFirst.get(tokens[i]?.norm ?? '') ?? [];
    for (const a of candidates) {
      const n = a.tokens.length;
      if (i + n > tokens.length) continue;
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = !taken[i + j] && tokens[i + j]?.norm === a.tokens[j];
      if (!ok) continue;
      const start = tokens[i]?.start ?? 0;
      const end = tokens[i + n - 1]?.end ?? start;
      for (let j = 0; j < n; j++) taken[i + j] = true;
      out.push({ start, end, kind: a.kind, text: text.slice(start, end) });
      break;
    }
  }
  return out;
}

/** `user`: whom the pass works for; its writes are `audit/user:<user>` (an origin names its member, [S26]). */
export type AuditDeps = { db: Db; workspaceId: string; user: string };

/** Links mentions of known entities in the file's sections (or the file's own text). Returns the count. */
export function deterministicAudit(deps: AuditDeps, file: ItemRow, run: string): number {
  const sections = deps.db
    .prepare(
      `SELECT * FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL ORDER BY ordinal`,
    )
    .all(file.id) as ItemRow[];
  const targets = sections.length ? sections : file.body ? [file] : [];
  const cache = new Map<string, Alias[]>();
  let mentions = 0;
  for (const item of targets) {
    let aliases = cache.get(item.scope);
    if (!aliases) {
      aliases = aliasesFor(deps.db, item.scope);
      cache.set(item.scope, aliases);
    }
    if (aliases.length === 0) continue;
    for (const m of findMentions(item.body, aliases)) {
      try {
        observeMention(
          deps.db,
          deps.workspaceId,
          [item.scope],
          { itemId: item.id, name: m.text, kind: m.kind, span: { start: m.start, end: m.end } },
          { actor: actorUnder('audit', deps.user), source: 'audit', run },
        );
        mentions += 1;
      } catch {
        // one bad span does not stop the pass
      }
    }
  }
  return mentions;
}
