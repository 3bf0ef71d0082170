/** Parity rows for notes.add (src/shared/api/ops/notes.ts). */
import type { Case, ParityWorld } from './case.ts';

export function noteCases(_w: ParityWorld): Case[] {
  return [
    {
      name: 'a new note',
      op: 'notes.add',
      input: { kind: 'decision', label: 'Renewal owner', body: 'Dana renews the Lisbon lease.' },
      cli: ['note', 'add', '--kind', 'decision', '--label', 'Renewal owner', 'Dana renews the Lisbon lease.'],
      fresh: ['id', 'source_key'],
    },
    {
      name: 'a note in a scope not ours',
      op: 'notes.add',
      input: { kind: 'fact', label: 'x', body: 'y', scope: 'user:someone-else' },
      cli: ['note', 'add', '--label', 'x', '--kind', 'fact', '--scope', 'user:someone-else', 'y'],
    },
    {
      name: 'a note with an empty body',
      op: 'notes.add',
      input: { kind: 'fact', label: 'x', body: '   ' },
      cli: ['note', 'add', '--label', 'x', '--kind', 'fact', '   '],
    },
  ];
}
