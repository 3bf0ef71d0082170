/**
 * Parity rows for mentions.observe, links.add, graph.neighborhood and runs.end
 * (src/shared/api/ops/graph.ts). A row runs on every surface in turn on one workspace, so a write
 * lands four times: the answer is the same each time except what the first write alone makes
 * (a new entity, a run not yet ended), which `fresh` leaves out.
 */
import { recordRunEnd } from '#engine/writeback/run-end.ts';
import type { Case, ParityWorld } from './case.ts';

const THEIR_RUN = 'parity-run-of-someone-else';

type Prepared = { fileId: string; lisbon: { start: number; end: number } };

/** The indexed lease file, where its section says Lisbon, and a run another member ended. */
function prepare(w: ParityWorld): Prepared {
  const file = w.engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'file' LIMIT 1").get() as {
    id: string;
  };
  const section = w.engine.db.prepare('SELECT body FROM items WHERE id = ?').get(w.sectionId) as {
    body: string;
  };
  const start = section.body.indexOf('Lisbon');
  recordRunEnd(w.engine.db, {
    run: THEIR_RUN,
    workspaceId: w.engine.workspaceId,
    user: 'someone-else',
    agent: 'parity',
    status: 'failed',
    workProducts: 'Theirs.',
    startedAt: null,
  });
  return { fileId: file.id, lisbon: { start, end: start + 'Lisbon'.length } };
}

function mentionCases(w: ParityWorld, { lisbon }: Prepared): Case[] {
  const at = (name: string, quote: string) => ({ item_id: w.sectionId, name, kind: 'person', quote });
  return [
    {
      name: 'a name seen for the first time',
      op: 'mentions.observe',
      input: at('Dana', 'Dana'),
      cli: ['mention', w.sectionId, 'Dana', '--kind', 'person', '--quote', 'Dana'],
      fresh: ['entity'],
    },
    {
      name: 'a known name in another spelling',
      op: 'mentions.observe',
      input: at('dana', 'Dana'),
      cli: ['mention', w.sectionId, 'dana', '--kind', 'person', '--quote', 'Dana'],
    },
    {
      name: 'a mention by span',
      op: 'mentions.observe',
      input: { item_id: w.sectionId, name: 'Lisbon', kind: 'other', span: lisbon },
      cli: ['mention', w.sectionId, 'Lisbon', '--kind', 'other', '--span', `${lisbon.start}-${lisbon.end}`],
      fresh: ['entity'],
    },
    {
      name: 'a quote the item does not hold',
      op: 'mentions.observe',
      input: at('Initech', 'Initech'),
      cli: ['mention', w.sectionId, 'Initech', '--kind', 'person', '--quote', 'Initech'],
    },
    {
      name: 'a kind that is not one',
      op: 'mentions.observe',
      input: { ...at('Dana', 'Dana'), kind: 'planet' },
      cli: ['mention', w.sectionId, 'Dana', '--kind', 'planet', '--quote', 'Dana'],
    },
    {
      name: 'a mention in an item that does not exist',
      op: 'mentions.observe',
      input: { ...at('Dana', 'Dana'), item_id: 's_missing' },
      cli: ['mention', 's_missing', 'Dana', '--kind', 'person', '--quote', 'Dana'],
    },
  ];
}

function linkCases(w: ParityWorld, fileId: string): Case[] {
  return [
    {
      name: 'a custom link',
      op: 'links.add',
      input: { from_id: w.sectionId, to_id: fileId, type: 'see also', note: 'the whole lease' },
      cli: ['link', w.sectionId, fileId, '--type', 'see also', '--note', 'the whole lease'],
    },
    {
      name: 'an item linked to itself',
      op: 'links.add',
      input: { from_id: fileId, to_id: fileId, type: 'see also' },
      cli: ['link', fileId, fileId, '--type', 'see also'],
    },
    {
      name: 'a link of a reserved type',
      op: 'links.add',
      input: { from_id: w.sectionId, to_id: fileId, type: 'MENTIONS' },
      cli: ['link', w.sectionId, fileId, '--type', 'MENTIONS'],
    },
    {
      name: 'a link to an item that does not exist',
      op: 'links.add',
      input: { from_id: fileId, to_id: 'n_missing', type: 'see also' },
      cli: ['link', fileId, 'n_missing', '--type', 'see also'],
    },
  ];
}

function neighborhoodCases(w: ParityWorld): Case[] {
  return [
    {
      name: 'a neighborhood two hops out',
      op: 'graph.neighborhood',
      input: { id: w.sectionId, hops: 2 },
      cli: ['neighborhood', w.sectionId, '--hops', '2'],
    },
    {
      name: 'a neighborhood three hops out',
      op: 'graph.neighborhood',
      input: { id: w.sectionId, hops: 3 },
      cli: ['neighborhood', w.sectionId, '--hops', '3'],
    },
    {
      name: 'the neighborhood of an item that does not exist',
      op: 'graph.neighborhood',
      input: { id: 'n_missing' },
      cli: ['neighborhood', 'n_missing'],
    },
  ];
}

function runCases(): Case[] {
  const end = (status: string, run: string, work: string) => ({
    input: { status, work_products: work, run_id: run },
    cli: ['runs', 'end', '--status', status, '--run', run, work],
  });
  return [
    {
      name: 'a failed run, kept and skipped',
      op: 'runs.end',
      ...end('failed', 'parity-run-1', 'Asked the landlord; no answer yet.'),
      fresh: ['replaced'],
    },
    {
      // Where the pass runs is each surface's own (src/engine/writeback/run-end.ts).
      name: 'a blocked run, pending write-back',
      op: 'runs.end',
      ...end('blocked', 'parity-run-2', 'The renewal waits for the landlord.'),
      fresh: ['replaced', 'writebackBy'],
    },
    {
      name: 'a run another member ended',
      op: 'runs.end',
      ...end('failed', THEIR_RUN, 'Mine now.'),
    },
    {
      name: 'a status that is not one',
      op: 'runs.end',
      ...end('exploded', 'parity-run-3', 'Boom.'),
    },
    {
      name: 'work products over the cap',
      op: 'runs.end',
      ...end('succeeded', 'parity-run-4', 'w'.repeat(8001)),
    },
  ];
}

export function graphCases(w: ParityWorld): Case[] {
  const prepared = prepare(w);
  return [
    ...mentionCases(w, prepared),
    ...linkCases(w, prepared.fileId),
    ...neighborhoodCases(w),
    ...runCases(),
  ];
}
