/**
 * Write, the last step of the compile pass (docs/FACTS.md [K9]–[K11]): ONE write transaction, taken
 * after every model call is done. There is one SQLite writer at a time, so this transaction is the
 * workspace's lock for the pass ([K11]): inside it the source is read again, and a source whose
 * version or content moved on since it was compiled drops the result (it waits for its next pass).
 * The pass writes only while the source's compile claim names its token (src/engine/compile/claim.ts)
 * and deletes that claim in the same transaction.
 *
 * Recompiling is a diff: a claim of the result that the source's earlier compile already holds,
 * unchanged, is left as it is (no row is touched); a new or changed one is stated with the engine's
 * rules (stateFact, [K1], [K6]); the earlier compile's claims from this source or its sections that
 * the result no longer holds are retired. Claims people or agents stated on the source are never
 * retired here. An entity the judge could not place goes on a Possible duplicate card with its facts.
 */
import { actorUnder, edgeDiscriminator, factKey } from '#shared/ids.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';
import { stateFact } from '../knowledge/facts.ts';
import {
  type EntityKind,
  edgeId,
  entityAliases,
  findOrCreateEntity,
  normaliseName,
  type Origin,
} from '../knowledge/graph.ts';
import { addDuplicateCard } from '../knowledge/review-cards.ts';
import { getRow, type ItemRow } from '../read/items.ts';
import { dropClaim, holdsSource } from './claim.ts';
import type { ExtractedFact } from './extract.ts';
import type { Decision } from './judge.ts';
import { type CompileSource, loadSource } from './source.ts';

export type WriteCounts = {
  /** Claims the source holds from its compile now (stated anew or kept). */
  facts: number;
  added: number;
  kept: number;
  retired: number;
  /** Entity faces those claims are on. */
  entities: number;
  cards: number;
};

/** done; stale: the source moved on; busy: the claim is no longer this pass's (taken over, [K11]). */
export type WriteResult = ({ state: 'done' } & WriteCounts) | { state: 'stale' | 'busy' };

type EdgeRow = {
  id: string;
  from_id: string;
  to_id: string;
  props: string | null;
  retired_at: string | null;
  origin_source: string;
  /** The claim's source is a section a newer version of the file retired. */
  from_retired: number;
};

/** Who writes a compile: the pass, for the member whose source it is ([S26] in docs/SYNC_SPEC.md). */
function compileOrigin(user: string, source: Pick<ItemRow, 'id' | 'version'>): Origin {
  return {
    actor: actorUnder('compile', user),
    source: 'compile',
    run: `compile:${source.id}:${source.version}`,
  };
}

/** Every claim from the source or any of its sections (live or retired), by id. */
function earlierClaims(db: Db, source: ItemRow): Map<string, EdgeRow> {
  const rows = stmt(
    db,
    `SELECT e.id, e.from_id, e.to_id, e.props, e.retired_at, e.origin_source, i.retired_at IS NOT NULL AS from_retired
     FROM edges e JOIN items i ON i.id = e.from_id
     WHERE e.type = 'FACT' AND (e.from_id = @id OR e.from_id IN (
       SELECT id FROM items WHERE file_id = @id AND storage_kind = 'section'))`,
  ).all({ id: source.id }) as EdgeRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

function faceByName(db: Db, scope: string, kind: EntityKind, normalised: string): string | null {
  const row = stmt(
    db,
    `SELECT id FROM items WHERE storage_kind = 'entity' AND scope = ? AND canonical_type = ? AND canonical_value = ?
     AND retired_at IS NULL ORDER BY rowid LIMIT 1`,
  ).get(scope, kind, normalised) as { id: string } | undefined;
  return row?.id ?? null;
}

/** The face the claims go to in the source's scope, when it exists already (stateFact's faceIn, [K1]). */
function faceOf(db: Db, scope: string, d: Exclude<Decision, { to: 'card' }>): string | null {
  if (d.to === 'new') return faceByName(db, scope, d.entity.kind, d.entity.normalised);
  if (d.candidate.scope === scope) return d.candidate.id;
  const row = getRow(db, d.candidate.id);
  if (!row) return null;
  const kind = (row.canonical_type ?? row.kind) as EntityKind;
  return faceByName(db, scope, kind, normaliseName(row.label, kind));
}

function propsOf(edge: EdgeRow): Record<string, unknown> {
  try {
    return JSON.parse(edge.props ?? '') as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Does the stored claim say exactly what stating `f` would store? Then it is kept untouched. */
function isSameClaim(db: Db, edge: EdgeRow, f: ExtractedFact): boolean {
  const p = propsOf(edge);
  const piece = getRow(db, f.piece);
  const at = piece?.body.indexOf(f.quote) ?? -1;
  const span = p.span as { start?: number; end?: number } | null;
  const validAt = f.validAt ?? piece?.occurred_at ?? p.validAt;
  return (
    p.statement === f.statement &&
    (p.attribute ?? null) === f.attribute &&
    p.quote === f.quote &&
    p.validAt === validAt &&
    span?.start === at &&
    span?.end === at + f.quote.length
  );
}

/**
 * This compile's claim of the same fact in the same words on a section a newer version retired: it
 * stands on the live section that holds the words ([K17]), so it is kept as it is, not stated again.
 */
function carriedClaim(pass: Pass, face: string, f: ExtractedFact): EdgeRow | undefined {
  const key = factKey(f.attribute, f.statement);
  for (const e of pass.earlier.values()) {
    if (e.to_id !== face || !e.from_retired || e.retired_at !== null || e.origin_source !== 'compile')
      continue;
    const p = propsOf(e);
    if (typeof p.statement !== 'string' || p.quote !== f.quote) continue;
    const attribute = typeof p.attribute === 'string' ? p.attribute : null;
    if (factKey(attribute, p.statement) !== key || p.statement !== f.statement) continue;
    if (f.validAt && p.validAt !== f.validAt) continue;
    return e;
  }
  return undefined;
}

type Pass = {
  db: Db;
  workspaceId: string;
  source: CompileSource;
  origin: Origin;
  earlier: Map<string, EdgeRow>;
  keep: Set<string>;
};

/** States (or keeps) one entity's facts; returns the face they are on, and how many were added. */
function writeEntity(
  pass: Pass,
  d: Exclude<Decision, { to: 'card' }>,
): { face: string | null; added: number; kept: number } {
  const { db, source } = pass;
  let face = faceOf(db, source.row.scope, d);
  let added = 0;
  let kept = 0;
  for (const f of d.entity.facts) {
    if (face) {
      const props = JSON.stringify({ statement: f.statement, attribute: f.attribute });
      const id = edgeId(f.piece, 'FACT', face, edgeDiscriminator('FACT', props));
      // The same claim twice in one result (two names judged one entity): written once.
      if (pass.keep.has(id)) continue;
      const prev = pass.earlier.get(id);
      // A live claim someone else stated, or this compile's own unchanged one: left as it is.
      const same =
        prev && prev.retired_at === null && (prev.origin_source !== 'compile' || isSameClaim(db, prev, f))
          ? prev
          : carriedClaim(pass, face, f);
      if (same) {
        pass.keep.add(same.id);
        kept += 1;
        continue;
      }
    }
    const entity = face ?? (d.to === 'existing' ? d.candidate.id : d.entity.name);
    const r = stateFact(
      db,
      pass.workspaceId,
      source.scopes,
      {
        entity,
        kind: d.entity.kind,
        statement: f.statement,
        attribute: f.attribute,
        validAt: f.validAt,
        citation: { item: f.piece, quote: f.quote },
      },
      pass.origin,
    );
    face = r.entity.id;
    pass.keep.add(r.edge.id);
    added += 1;
  }
  return { face, added, kept };
}

/** The name the source used becomes an alias of the face it was judged to be (findable by it next time). */
function keepAlias(pass: Pass, faceId: string, name: string): void {
  const face = getRow(pass.db, faceId);
  if (!face?.canonical_type || !face.canonical_value || entityAliases(face).includes(name)) return;
  findOrCreateEntity(
    pass.db,
    pass.workspaceId,
    { name, kind: face.canonical_type as EntityKind, normalised: face.canonical_value, scope: face.scope },
    pass.origin,
    new Date().toISOString(),
  );
}

function holdOnCard(pass: Pass, d: Extract<Decision, { to: 'card' }>): void {
  addDuplicateCard(pass.db, pass.workspaceId, {
    source: pass.source.row.id,
    sourceVersion: pass.source.row.version,
    name: d.entity.name,
    kind: d.entity.kind,
    candidates: d.candidates.map((c) => ({ id: c.id, label: c.label, score: c.score })),
    facts: d.entity.facts.map((f) => ({
      statement: f.statement,
      attribute: f.attribute,
      validAt: f.validAt,
      quote: f.quote,
    })),
    origin: pass.origin,
  });
}

function recordDone(db: Db, source: CompileSource, model: string, counts: WriteCounts): void {
  stmt(
    db,
    `INSERT INTO compile_passes (source_id, version, content_hash, model, state, facts, entities, cards, error, at)
     VALUES (?, ?, ?, ?, 'done', ?, ?, ?, NULL, ?)
     ON CONFLICT (source_id) DO UPDATE SET version = excluded.version, content_hash = excluded.content_hash,
       model = excluded.model, state = 'done', facts = excluded.facts, entities = excluded.entities,
       cards = excluded.cards, error = NULL, at = excluded.at`,
  ).run(
    source.row.id,
    source.row.version,
    source.hash,
    model,
    counts.facts,
    counts.entities,
    counts.cards,
    new Date().toISOString(),
  );
}

/**
 * Writes a compile's result in one transaction, or drops it when the source moved on or the claim
 * `token` is no longer this pass's ([K11]). The claim is deleted in the same transaction.
 */
export function writeCompile(
  deps: { db: Db; workspaceId: string; user: string },
  source: CompileSource,
  decisions: readonly Decision[],
  model: string,
  token: string,
): WriteResult {
  const { db } = deps;
  return writeTx(db, (): WriteResult => {
    if (!holdsSource(db, source.row.id, token)) return { state: 'busy' };
    dropClaim(db, source.row.id, token);
    const current = loadSource(db, source.row.id);
    if (!current || current.row.version !== source.row.version || current.hash !== source.hash)
      return { state: 'stale' };
    const pass: Pass = {
      db,
      workspaceId: deps.workspaceId,
      source,
      origin: compileOrigin(deps.user, source.row),
      earlier: earlierClaims(db, source.row),
      keep: new Set(),
    };
    const faces = new Set<string>();
    let added = 0;
    let kept = 0;
    let cards = 0;
    for (const d of decisions) {
      if (d.to === 'card') {
        holdOnCard(pass, d);
        cards += 1;
        continue;
      }
      const r = writeEntity(pass, d);
      added += r.added;
      kept += r.kept;
      if (!r.face) continue;
      faces.add(r.face);
      if (d.to === 'existing') keepAlias(pass, r.face, d.entity.name);
    }
    const retire = stmt(db, 'UPDATE edges SET retired_at = ? WHERE id = ?');
    const at = new Date().toISOString();
    let retired = 0;
    for (const [id, e] of pass.earlier) {
      if (e.origin_source !== 'compile' || e.retired_at !== null || pass.keep.has(id)) continue;
      retire.run(at, id);
      retired += 1;
    }
    const counts = { facts: pass.keep.size, added, kept, retired, entities: faces.size, cards };
    recordDone(db, source, model, counts);
    return { state: 'done', ...counts };
  });
}
