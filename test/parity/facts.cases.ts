/**
 * Parity rows for facts over time (src/shared/api/ops/facts.ts, docs/FACTS.md): a fact stated from
 * the lease's section, the page read with and without its history, refusals, a retirement, a
 * source's versions (docs/FACTS.md [K16]). A write
 * lands on every surface in turn: the claim is the same one each time, only who stated it last
 * (the fact's origin) differs, which `fresh` leaves out.
 */
import { factId } from '#engine/knowledge/facts.ts';
import type { Case, ParityWorld } from './case.ts';

/** The file the parity world's section is in. */
function fileOf(w: ParityWorld): string {
  return (
    w.engine.db.prepare('SELECT file_id FROM items WHERE id = ?').get(w.sectionId) as { file_id: string }
  ).file_id;
}

/** A row with what must hold before each surface's call (test/parity.test.ts runs it first). */
type FactCase = Case & { before?: () => void };

export function factCases(w: ParityWorld): FactCase[] {
  const quote = 'The Lisbon office lease ends in March 2027';
  const state = {
    entity: 'Lisbon office',
    kind: 'other',
    statement: 'The Lisbon office lease ends in March 2027.',
    attribute: 'term',
    item_id: w.sectionId,
    quote,
  };
  const entityOf = () =>
    (
      w.engine.db
        .prepare("SELECT id FROM items WHERE storage_kind = 'entity' AND label = 'Lisbon office'")
        .get() as { id: string } | undefined
    )?.id ?? 'e_00000000000000000000';
  const entity = {
    get id() {
      return entityOf();
    },
  };
  return [
    {
      name: 'stating a fact with its citation',
      op: 'facts.state',
      input: state,
      cli: [
        'fact',
        'add',
        state.entity,
        state.statement,
        '--kind',
        'other',
        '--attribute',
        'term',
        '--item',
        w.sectionId,
        '--quote',
        quote,
      ],
      fresh: ['fact'],
    },
    {
      name: 'a quote the source does not hold',
      op: 'facts.state',
      input: { ...state, quote: 'ends in 2030' },
      cli: ['fact', 'add', state.entity, state.statement, '--item', w.sectionId, '--quote', 'ends in 2030'],
    },
    {
      name: "an entity's facts",
      op: 'facts.list',
      get input() {
        return { entity: entity.id };
      },
      get cli() {
        return ['fact', 'list', entity.id];
      },
    },
    {
      name: 'an entity that is not there',
      op: 'facts.list',
      input: { entity: 'e_00000000000000000000' },
      cli: ['fact', 'list', 'e_00000000000000000000'],
    },
    {
      name: 'a date that is not one',
      op: 'facts.state',
      input: { ...state, valid_at: '2026-02-30' },
      cli: [
        'fact',
        'add',
        state.entity,
        state.statement,
        '--item',
        w.sectionId,
        '--quote',
        quote,
        '--valid-at',
        '2026-02-30',
      ],
    },
    {
      name: "a section's id as the entity (refused: it is no entity)",
      op: 'facts.state',
      input: { ...state, entity: w.sectionId },
      cli: ['fact', 'add', w.sectionId, state.statement, '--item', w.sectionId, '--quote', quote],
    },
    {
      name: 'retiring the fact',
      op: 'facts.retire',
      get input() {
        return { fact: factId(entity.id, 'term', state.statement) };
      },
      get cli() {
        return ['fact', 'retire', factId(entity.id, 'term', state.statement)];
      },
      // Each surface retires it from the same state, its claim live; when differs by call (the
      // page with its history, below, compares what it left).
      fresh: ['fact'],
      before: () => {
        w.engine.db
          .prepare("UPDATE edges SET retired_at = NULL WHERE type = 'FACT' AND to_id = ?")
          .run(entity.id);
      },
    },
    {
      name: 'retiring the fact again (refused: it was retired already)',
      op: 'facts.retire',
      get input() {
        return { fact: factId(entity.id, 'term', state.statement) };
      },
      get cli() {
        return ['fact', 'retire', factId(entity.id, 'term', state.statement)];
      },
    },
    {
      name: 'removing a source that is not there',
      op: 'items.remove',
      input: { id: 'f_00000000000000000000' },
      cli: ['remove', 'f_00000000000000000000', '--yes'],
    },
    {
      name: 'removing an entity instead of a source',
      op: 'items.remove',
      get input() {
        return { id: entity.id };
      },
      get cli() {
        return ['remove', entity.id, '--yes'];
      },
    },
    {
      name: "a file's versions",
      op: 'items.versions',
      get input() {
        return { id: fileOf(w) };
      },
      get cli() {
        return ['versions', fileOf(w)];
      },
    },
    {
      name: 'the versions of a section (refused: only files and notes have versions)',
      op: 'items.versions',
      input: { id: w.sectionId },
      cli: ['versions', w.sectionId],
    },
    {
      name: 'the versions of an item that is not there',
      op: 'items.versions',
      input: { id: 'f_00000000000000000000' },
      cli: ['versions', 'f_00000000000000000000'],
    },
    // Erasing ([K14]) as the local admin: refused alike on every surface, nothing erased.
    {
      name: 'erasing a source that is not there',
      op: 'items.erase',
      input: { id: 'f_00000000000000000000' },
      cli: ['erase', 'f_00000000000000000000', '--yes'],
    },
    {
      name: 'erasing a section instead of its file',
      op: 'items.erase',
      input: { id: w.sectionId },
      cli: ['erase', w.sectionId, '--yes'],
    },
    {
      name: 'erasing an entity instead of a source',
      op: 'items.erase',
      get input() {
        return { id: entity.id };
      },
      get cli() {
        return ['erase', entity.id, '--yes'];
      },
    },
    {
      name: 'the page with its history',
      op: 'facts.list',
      get input() {
        return { entity: entity.id, history: true };
      },
      get cli() {
        return ['fact', 'list', entity.id, '--history'];
      },
    },
  ];
}
