/**
 * Parity rows for entities.list, entities.duplicates, entities.link, items.dossier, graph.get and
 * activity.list (src/shared/api/ops/knowledge.ts). The workspace gets a note naming two people
 * whose names differ by one letter, so there are entities, a pair of possible duplicates and a
 * graph around them; the names are not the lease's, so the other domains' rows keep their own.
 * entities.duplicates and entities.link have no `brain` command (`notOn: ['cli']`): their rows
 * run on the app's surfaces only, and `cli` is left empty.
 */
import { observeMention } from '#engine/knowledge/graph.ts';
import { upsertNote } from '#engine/knowledge/notes.ts';
import type { Case, ParityWorld } from './case.ts';

type Seeded = { sousa: string; souza: string; section: { start: number; end: number } };

/** The note and its two people; and where the lease section says "Dana" (a mention's span). */
function seed(w: ParityWorld): Seeded {
  const { engine } = w;
  const body = 'Marta Sousa keeps the spare keys; Marta Souza signs the cleaning invoices.';
  const note = upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label: 'Spare keys',
    body,
    scope: 'org',
    sourceKey: 'parity:spare-keys',
    actor: engine.user,
    source: 'parity',
  });
  const origin = { actor: engine.user, source: 'parity', run: '' };
  const person = (name: string) => {
    const input = { itemId: note.id, name, kind: 'person' as const, quote: name };
    return observeMention(engine.db, engine.workspaceId, engine.scopes(), input, origin).entity.id;
  };
  const text = (engine.db.prepare('SELECT body FROM items WHERE id = ?').get(w.sectionId) as { body: string })
    .body;
  const start = text.indexOf('Dana');
  return { sousa: person('Marta Sousa'), souza: person('Marta Souza'), section: { start, end: start + 4 } };
}

function entityCases({ sousa, souza }: Seeded): Case[] {
  return [
    { name: 'every entity', op: 'entities.list', input: {}, cli: ['entities'] },
    {
      name: 'entities by an alias',
      op: 'entities.list',
      input: { q: 'MARTA SOUZA' },
      cli: ['entities', '--q', 'MARTA SOUZA'],
    },
    {
      name: 'an entities limit of 0',
      op: 'entities.list',
      input: { limit: 0 },
      cli: ['entities', '--limit', '0'],
    },
    { name: 'possible duplicates', op: 'entities.duplicates', input: {}, cli: [] },
    { name: 'a duplicates limit over 500', op: 'entities.duplicates', input: { limit: 501 }, cli: [] },
    {
      name: 'two people confirmed the same',
      op: 'entities.link',
      input: { from: sousa, to: souza },
      cli: [],
    },
    { name: 'an entity linked to itself', op: 'entities.link', input: { from: sousa, to: sousa }, cli: [] },
    {
      name: 'a link to an entity that does not exist',
      op: 'entities.link',
      input: { from: sousa, to: 'e_missing' },
      cli: [],
    },
  ];
}

function dossierCases(w: ParityWorld, { sousa, section }: Seeded): Case[] {
  return [
    { name: "an entity's dossier", op: 'items.dossier', input: { id: sousa }, cli: ['dossier', sousa] },
    {
      name: "a section's dossier at a mention",
      op: 'items.dossier',
      input: { id: w.sectionId, at: section },
      cli: ['dossier', w.sectionId, '--at', `${section.start}-${section.end}`],
    },
    {
      name: 'a range that ends before it starts',
      op: 'items.dossier',
      input: { id: w.sectionId, at: { start: 5, end: 2 } },
      cli: ['dossier', w.sectionId, '--at', '5-2'],
    },
    {
      name: 'the dossier of an item that does not exist',
      op: 'items.dossier',
      input: { id: 'n_missing' },
      cli: ['dossier', 'n_missing'],
    },
  ];
}

function graphCases({ sousa }: Seeded): Case[] {
  return [
    { name: 'the whole graph', op: 'graph.get', input: {}, cli: ['graph'] },
    {
      name: 'two hops out, sections unfolded',
      op: 'graph.get',
      input: { around: sousa, hops: 2, storageKinds: ['file', 'section', 'note', 'entity'] },
      cli: ['graph', '--around', sousa, '--hops', '2', '--storage-kinds', 'file,section,note,entity'],
    },
    {
      name: 'a graph four hops out',
      op: 'graph.get',
      input: { around: sousa, hops: 4 },
      cli: ['graph', '--around', sousa, '--hops', '4'],
    },
    {
      name: 'a storage kind that is not one',
      op: 'graph.get',
      input: { storageKinds: ['planet'] },
      cli: ['graph', '--storage-kinds', 'planet'],
    },
    {
      name: 'the graph around an item hidden by its filters',
      op: 'graph.get',
      input: { around: sousa, storageKinds: ['file'] },
      cli: ['graph', '--around', sousa, '--storage-kinds', 'file'],
    },
  ];
}

/** Entries made before the rows run (adding the lease): later rows and background work log after them. */
function activityCases(w: ParityWorld): Case[] {
  const last = w.engine.db.prepare('SELECT MAX(id) AS id FROM telemetry').get() as { id: number | null };
  const before = (last.id ?? 0) + 1;
  return [
    {
      name: 'a page of activity',
      op: 'activity.list',
      input: { limit: 5, before },
      cli: ['activity', '--limit', '5', '--before', String(before)],
    },
    {
      name: 'an activity limit over 500',
      op: 'activity.list',
      input: { limit: 501 },
      cli: ['activity', '--limit', '501'],
    },
  ];
}

export function knowledgeCases(w: ParityWorld): Case[] {
  const seeded = seed(w);
  return [...entityCases(seeded), ...dossierCases(w, seeded), ...graphCases(seeded), ...activityCases(w)];
}
