/**
 * Parity rows for the workspace's files (src/shared/api/ops/files.ts) and moving an item
 * (ops/items.ts): listed, added and indexed alike on IPC, HTTP and the command line (no MCP tool:
 * agents never add from the disk they run on). Indexing is queued by a host and done before the
 * answer by the command line, so only its acceptance is compared, not its outcome.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Case, ParityWorld } from './case.ts';

function leaseFileId(w: ParityWorld): string {
  return (
    w.engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'file' AND label = 'lease.md'").get() as {
      id: string;
    }
  ).id;
}

export function fileCases(w: ParityWorld): Case[] {
  const lease = join(dirname(w.home), 'lease.md');
  const fileId = leaseFileId(w);
  // `brain unlock` reads its password from a file, never from an argument (docs/SECURITY.md [U1]).
  const passwordFile = join(dirname(w.home), 'unlock-password');
  writeFileSync(passwordFile, 'hunter2\n');
  return [
    { name: 'the file list', op: 'files.list', input: {}, cli: ['files'] },
    {
      name: 'indexed files by name',
      op: 'files.list',
      input: { states: ['indexed'], sort: 'name', dir: 'asc' },
      cli: ['files', '--state', 'indexed', '--sort', 'name', '--asc'],
    },
    { name: 'a filter on the name', op: 'files.list', input: { q: 'lease' }, cli: ['files', 'lease'] },
    { name: 'a page too long', op: 'files.list', input: { limit: 5000 }, cli: ['files', '--limit', '5000'] },
    {
      name: 'an unknown sort',
      op: 'files.list',
      input: { sort: 'colour' },
      cli: ['files', '--sort', 'colour'],
    },
    { name: 'a file added again', op: 'files.add', input: { paths: [lease] }, cli: ['add', lease] },
    {
      name: 'a path that does not exist',
      op: 'files.add',
      input: { paths: [join(dirname(w.home), 'missing.md')] },
      cli: ['add', join(dirname(w.home), 'missing.md')],
    },
    {
      name: 'a scope that does not exist',
      op: 'files.add',
      input: { paths: [lease], scope: 'galaxy' },
      cli: ['add', lease, '--scope', 'galaxy'],
    },
    // The command line needs a path (commander refuses none as a usage error).
    { name: 'nothing to add', op: 'files.add', input: { paths: [] }, cli: [] },
    { name: 'indexing an unknown id', op: 'files.index', input: { ids: ['nope'] }, cli: ['index', 'nope'] },
    {
      // docs/OCR.md [O9]: only PDFs are read by OCR on request; the world's one file is Markdown.
      name: 'reading a Markdown file by OCR',
      op: 'files.index',
      input: { ids: [fileId], ocr: true },
      cli: ['index', '--ocr', fileId],
    },
    {
      name: 'indexing a section',
      op: 'files.index',
      input: { ids: [w.sectionId] },
      cli: ['index', w.sectionId],
    },
    {
      name: 'moving an unknown item',
      op: 'items.move',
      input: { id: 'nope', scope: 'org' },
      cli: ['move', 'nope', '--scope', 'org', '--yes'],
    },
    {
      name: 'moving the file where it is',
      op: 'items.move',
      input: { id: fileId, scope: 'org' },
      cli: ['move', fileId, '--scope', 'org', '--yes'],
    },
    {
      name: 'what a move would do',
      op: 'items.planMove',
      input: { id: fileId, scope: 'user:tester' },
      cli: [],
    },
    {
      name: 'unlocking an unknown id',
      op: 'files.unlock',
      input: { id: 'nope', password: 'hunter2' },
      cli: ['unlock', 'nope', '--password-file', passwordFile],
    },
    {
      name: 'unlocking a section',
      op: 'files.unlock',
      input: { id: w.sectionId, password: 'hunter2' },
      cli: ['unlock', w.sectionId, '--password-file', passwordFile],
    },
    {
      name: 'indexing the file again',
      op: 'files.index',
      input: { ids: [fileId] },
      cli: ['index', fileId],
      // Queued by a host (how many depends on what is queued already), indexed by the command line.
      fresh: ['queued', 'indexed', 'failed', 'embedded', 'mentions'],
    },
  ];
}
