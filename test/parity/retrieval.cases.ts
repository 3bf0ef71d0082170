/**
 * Parity rows for search.query, items.read and context.get (src/shared/api/ops/retrieval.ts), and
 * items.original beside items.read (src/shared/api/ops/items.ts: the app's surfaces only, so `cli`
 * is empty): the workspace holds no PDF, so its rows are its refusals.
 */
import type { Case, ParityWorld } from './case.ts';

export function retrievalCases(w: ParityWorld): Case[] {
  return [
    {
      name: 'a search',
      op: 'search.query',
      input: { query: 'Lisbon lease', k: 3 },
      cli: ['search', 'Lisbon lease', '--k', '3'],
    },
    {
      name: 'a search with k 0',
      op: 'search.query',
      input: { query: 'lease', k: 0 },
      cli: ['search', 'lease', '--k', '0'],
    },
    {
      name: 'a cited range',
      op: 'items.read',
      input: { id: w.sectionId, from_line: 3, to_line: 3 },
      cli: ['read', w.sectionId, '--lines', '3-3'],
    },
    {
      name: 'a missing item',
      op: 'items.read',
      input: { id: 's_00000000000000000000' },
      cli: ['read', 's_00000000000000000000'],
    },
    {
      name: "a Markdown passage's original bytes",
      op: 'items.original',
      input: { id: w.sectionId },
      cli: [],
    },
    {
      name: "a missing item's original bytes",
      op: 'items.original',
      input: { id: 's_00000000000000000000' },
      cli: [],
    },
    {
      name: 'the context of a turn',
      op: 'context.get',
      input: { message: 'When does the Lisbon lease end?' },
      cli: ['context', 'When does the Lisbon lease end?'],
    },
    { name: 'small talk', op: 'context.get', input: { message: 'thanks!' }, cli: ['context', 'thanks!'] },
  ];
}
