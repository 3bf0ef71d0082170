/**
 * Parity rows for repository trees (src/shared/api/ops/trees.ts, docs/TREES.md): connected, read
 * and searched alike on IPC, HTTP, the command line and (for the reads) MCP. A read's text differs
 * by surface on purpose (agents get numbered lines), so only the rest of its answer is compared.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Case, ParityWorld } from './case.ts';

export function treeCases(w: ParityWorld): Case[] {
  const repo = join(dirname(w.home), 'guide-repo');
  mkdirSync(join(repo, 'leases'), { recursive: true });
  writeFileSync(
    join(repo, 'README.md'),
    '# Office guide\n\nWhere the office rules live. See [leases](leases/lisbon.md).\n',
  );
  writeFileSync(
    join(repo, 'leases', 'lisbon.md'),
    '# Lisbon lease\n\nThe lease renewal is due in March 2027.\n\n## Owner\n\nDana owns the renewal. See [the old plan](old-plan.md).\n',
  );
  return [
    {
      name: 'connecting a folder',
      op: 'trees.connect',
      input: { folder: repo },
      cli: ['tree', 'connect', repo],
    },
    {
      name: 'connecting a folder that is not there',
      op: 'trees.connect',
      input: { folder: join(repo, 'nope') },
      cli: ['tree', 'connect', join(repo, 'nope')],
    },
    { name: 'the trees', op: 'trees.list', input: {}, cli: ['tree', 'list'] },
    { name: 'the root', op: 'trees.tree', input: {}, cli: ['tree', 'show'] },
    { name: 'a folder', op: 'trees.tree', input: { node: 'leases/' }, cli: ['tree', 'show', 'leases/'] },
    {
      name: 'a node that is not there',
      op: 'trees.tree',
      input: { node: 'nope.md' },
      cli: ['tree', 'show', 'nope.md'],
    },
    {
      name: 'reading a section',
      op: 'trees.read',
      input: { node: 'leases/lisbon.md#owner' },
      cli: ['tree', 'read', 'leases/lisbon.md#owner'],
      fresh: ['text', 'lineNumbers'],
    },
    {
      name: 'a lookup by path',
      op: 'trees.lookup',
      input: { query: 'leases/lisbon.md' },
      cli: ['tree', 'lookup', 'leases/lisbon.md'],
    },
    {
      name: 'grep',
      op: 'trees.grep',
      input: { text: 'renewal lease' },
      cli: ['tree', 'grep', 'renewal', 'lease'],
    },
    {
      name: 'backlinks',
      op: 'trees.backlinks',
      input: { node: 'leases/lisbon.md' },
      cli: ['tree', 'backlinks', 'leases/lisbon.md'],
    },
    {
      name: 'backlinks of a folder',
      op: 'trees.backlinks',
      input: { node: 'leases/' },
      cli: ['tree', 'backlinks', 'leases/'],
    },
    { name: 'broken links', op: 'trees.broken', input: {}, cli: ['tree', 'broken'] },
  ];
}
