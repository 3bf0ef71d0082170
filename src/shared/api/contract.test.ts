import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, CONTRACT } from './contract.ts';
import { API_COMMANDS } from './names.ts';

describe('contract', () => {
  it('the preload allowlist names exactly the contract commands', () => {
    expect([...API_COMMANDS].sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('rejects bad input at the boundary', () => {
    expect(CONTRACT['files.list'].input.safeParse({ limit: 5000 }).success).toBe(false);
    expect(CONTRACT['chat.send'].input.safeParse({ message: '   ' }).success).toBe(false);
    expect(CONTRACT['files.add'].input.safeParse({ paths: [], extra: 1 }).success).toBe(false);
    expect(CONTRACT['files.list'].input.parse({})).toMatchObject({
      sort: 'addedAt',
      dir: 'desc',
      offset: 0,
      limit: 200,
    });
  });
});
