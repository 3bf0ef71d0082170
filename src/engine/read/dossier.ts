/**
 * An item's dossier (items.dossier): the item as the app shows it, its file, the outline, the
 * whole text with the cited range highlighted, and an entity's page; always through the reader's
 * scopes.
 */
import type { Dossier, ItemView, OutlineEntry } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import type { FileFormat } from '#shared/types.ts';
import type { Engine } from '../engine.ts';
import { ocrOptionsFor } from '../host/settings.ts';
import { datedFrom, isDatedNote } from '../ingest/document-date.ts';
import { readWholeText } from '../ingest/index.ts';
import { entityDossier } from '../knowledge/entity-dossier.ts';
import { visibleHealth } from '../knowledge/health.ts';
import { citationOf } from '../search/search.ts';
import { type ItemRow, parseLocator } from './items.ts';
import { indexedText, lockedOr } from './locked-text.ts';
import { visibleRow } from './read.ts';

type Span = { start: number; end: number };

/** A range inside the item's own text (a mention), moved to where that text sits in `text`. */
function spanIn(text: string, offset: number, at: Span | undefined): Span | null {
  if (!at || offset + at.end > text.length) return null;
  return { start: offset + at.start, end: offset + at.end };
}

/** `health`: the notes this viewer may see (visibleHealth in src/engine/knowledge/health.ts). */
function toItemView(r: ItemRow, health: string[]): ItemView {
  const from = r.storage_kind === 'file' ? datedFrom(health) : null;
  return {
    id: r.id,
    storageKind: r.storage_kind,
    kind: r.kind,
    label: r.label,
    scope: r.scope,
    origin: { actor: r.origin_actor, source: r.origin_source, run: r.origin_run, at: r.origin_at },
    occurredAt: r.occurred_at,
    dated: from && r.occurred_at ? { at: r.occurred_at, from } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
    retiredAt: r.retired_at,
    indexed: r.indexed === 1,
    size: r.size,
    format: r.format,
    path: r.canonical_value ?? null,
    health: health.filter((n) => !isDatedNote(n)),
    reason: r.index_error,
    locator: parseLocator(r.locator),
    ...(r.storage_kind === 'file' && r.read_by_ocr === 1 ? { readByOcr: true } : {}),
  };
}

function outlineOf(engine: Engine, fileId: string): OutlineEntry[] {
  const rows = engine.db
    .prepare(
      `SELECT id, label, ordinal, locator FROM items WHERE file_id = ? AND storage_kind = 'section'
       AND retired_at IS NULL ORDER BY ordinal`,
    )
    .all(fileId) as Pick<ItemRow, 'id' | 'label' | 'ordinal' | 'locator'>[];
  return rows.map((r) => {
    const loc = parseLocator(r.locator);
    return {
      id: r.id,
      label: r.label,
      ordinal: r.ordinal ?? 0,
      lineStart: loc && 'lineStart' in loc ? loc.lineStart : null,
      page: loc?.type === 'pdf' ? loc.page : null,
    };
  });
}

/** The offset in `text` where line `line` (1-based) starts. */
function offsetOfLine(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/** Where a section's body sits in its file's whole text, searched from where its locator says. */
function locateSection(text: string, section: ItemRow): { start: number; end: number } | null {
  const loc = parseLocator(section.locator);
  // Text and DOCX locators count lines in the whole text; a PDF's lines count within its page.
  const hint = loc && loc.type !== 'pdf' && 'lineStart' in loc ? offsetOfLine(text, loc.lineStart) : 0;
  const near = text.indexOf(section.body, Math.max(0, hint - 2000));
  const start = near >= 0 ? near : text.indexOf(section.body);
  return start >= 0 ? { start, end: start + section.body.length } : null;
}

export async function dossier(engine: Engine, id: string, at?: Span): Promise<Dossier> {
  const scopes = engine.scopes();
  const item = visibleRow(engine.db, id, scopes);
  const view = (r: ItemRow) => toItemView(r, visibleHealth(engine.db, r, scopes));
  if (item.storage_kind === 'entity') {
    return {
      item: view(item),
      file: null,
      outline: [],
      text: null,
      textNote: null,
      highlight: null,
      citation: null,
      entity: entityDossier(engine.db, scopes, item),
    };
  }
  if (item.storage_kind === 'note') {
    return {
      item: view(item),
      file: null,
      outline: [],
      text: item.body,
      textNote: null,
      highlight: spanIn(item.body, 0, at),
      citation: null,
    };
  }
  const file =
    item.storage_kind === 'file' ? item : item.file_id ? visibleRow(engine.db, item.file_id, scopes) : null;
  if (!file) throw new AppError('not-found', `No file for ${id}.`);
  const base = {
    item: view(item),
    file: view(file),
    outline: outlineOf(engine, file.id),
    citation: citationOf(item, file),
  };
  if (item.storage_kind === 'section' && (item.blob !== file.blob || item.retired_at !== null)) {
    return {
      ...base,
      text: item.body,
      textNote: `${file.label} has changed since this passage was indexed; showing the passage as it was.`,
      highlight: spanIn(item.body, 0, at) ?? { start: 0, end: item.body.length },
    };
  }
  if (!file.blob || !file.format)
    return { ...base, text: null, textNote: 'No stored bytes.', highlight: null };
  try {
    const blob = file.blob;
    const text = await lockedOr(
      file,
      () =>
        readWholeText(engine.blobs.get(blob), file.format as FileFormat, {
          ...ocrOptionsFor(engine.db, file.format as FileFormat),
          // As the file was indexed: by OCR, its text layer ignored (docs/OCR.md [O9]).
          forceOcr: file.read_by_ocr === 1,
        }),
      () => indexedText(engine.db, file),
    );
    const section = item.storage_kind === 'section' ? locateSection(text, item) : null;
    // A span on a file counts in its whole text, as brain_read returns it (spanText in
    // src/engine/knowledge/graph.ts); on a section, in the section's own text.
    const highlight = (at ? spanIn(text, section?.start ?? 0, at) : null) ?? section;
    return {
      ...base,
      text,
      textNote: file.indexed === 1 ? null : 'Not indexed yet: not answerable.',
      highlight,
    };
  } catch (err) {
    return {
      ...base,
      text: null,
      textNote: `Cannot show the text: ${(err as Error).message}`,
      highlight: null,
    };
  }
}
