/**
 * Parity rows for access checks (src/shared/api/ops/access.ts, [R4] in docs/RETRIEVAL.md): the
 * local admin (`tester`, who made the workspace) runs a checks file through IPC, HTTP and the
 * command line (`brain access-check FILE`) alike, and a bad one is refused alike. The checks kept
 * in Settings are the app's (no command line for get/set), and `brain access-check` with no file
 * runs them. No MCP tool: agents do not run access checks. Only passing tables here: a failing one
 * makes the command line exit 1, which this table reads as an error.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Case, ParityWorld } from './case.ts';

const PASSING = JSON.stringify([
  { as: 'tester', question: 'When does the Lisbon office lease end?', mustReach: ['lease.md'] },
]);

function checksFile(w: ParityWorld, name: string, text: string): string {
  const path = join(dirname(w.home), name);
  writeFileSync(path, text);
  return path;
}

export function accessCases(w: ParityWorld): Case[] {
  const passing = checksFile(w, 'access-passing.json', PASSING);
  const typo = '[{"as": "tester", "question": "lease", "mustreach": ["lease.md"]}]';
  const misspelt = checksFile(w, 'access-typo.json', typo);
  return [
    {
      name: 'a checks file that passes',
      op: 'accessChecks.run',
      input: { text: PASSING, source: passing },
      cli: ['access-check', passing],
    },
    {
      name: 'a checks file with a misspelt field',
      op: 'accessChecks.run',
      input: { text: typo, source: misspelt },
      cli: ['access-check', misspelt],
    },
    {
      name: 'cases and a text at once',
      op: 'accessChecks.run',
      input: { cases: JSON.parse(PASSING) as unknown[], text: PASSING },
      cli: [],
    },
    { name: 'the kept checks', op: 'accessChecks.get', input: {}, cli: [] },
    {
      name: 'checks kept',
      op: 'accessChecks.set',
      input: { text: PASSING },
      cli: [],
      fresh: ['savedAt'],
    },
    { name: 'the kept checks run', op: 'accessChecks.run', input: {}, cli: ['access-check'] },
  ];
}
