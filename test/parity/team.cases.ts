/**
 * Parity rows for the team operations (src/shared/api/ops/team.ts): the sync state of a local
 * workspace, its local members and the chat model succeed alike; what needs a server refuses alike
 * (`refused`: not connected), and so do malformed ids, URLs and codes (`validation-failed`). None
 * has an MCP tool, so they run through IPC, HTTP and the CLI. The chat model rows put the settings
 * back as they found them (no model), so no surface starts calling one.
 */
import type { Case, ParityWorld } from './case.ts';

const LONG_NAME = 'm'.repeat(201);

function syncCases(): Case[] {
  return [
    { name: 'the sync state of a local workspace', op: 'sync.status', input: {}, cli: ['sync', 'status'] },
    { name: 'a round when not connected', op: 'sync.now', input: {}, cli: ['sync'] },
    { name: 'the members when not connected', op: 'sync.members', input: {}, cli: ['teams', 'list'] },
    { name: 'leaving when not connected', op: 'sync.leave', input: {}, cli: ['leave'] },
    {
      name: 'connecting to a malformed URL',
      op: 'sync.connect',
      input: { url: 'not a url', code: 'abcd-efgh-1234' },
      cli: ['connect', 'not a url', '--invite', 'abcd-efgh-1234'],
    },
    {
      name: 'connecting to a server that is not http',
      op: 'sync.connect',
      input: { url: 'ftp://brain.example.org', code: 'abcd-efgh-1234' },
      cli: ['connect', 'ftp://brain.example.org', '--invite', 'abcd-efgh-1234'],
    },
  ];
}

function memberCases(): Case[] {
  return [
    {
      name: 'a local member in a team',
      op: 'members.add',
      input: { user: 'parity-ana', teams: ['parity-legal'] },
      cli: ['members', 'add', 'parity-ana', '--team', 'parity-legal'],
    },
    {
      name: 'a local member with a malformed id',
      op: 'members.add',
      input: { user: 'not valid!' },
      cli: ['members', 'add', 'not valid!'],
    },
    {
      name: 'an invitation when not connected',
      op: 'members.invite',
      input: { user: 'ben', teams: [] },
      cli: ['invite', '--user', 'ben'],
    },
    {
      name: 'a revocation when not connected',
      op: 'members.revoke',
      input: { user: 'ben' },
      cli: ['revoke', 'ben'],
    },
    {
      name: 'a team when not connected',
      op: 'teams.create',
      input: { team: 'ops' },
      cli: ['teams', 'create', 'ops'],
    },
    {
      name: 'a team with a malformed id',
      op: 'teams.create',
      input: { team: 'no spaces' },
      cli: ['teams', 'create', 'no spaces'],
    },
    {
      name: 'adding to a team when not connected',
      op: 'teams.add',
      input: { team: 'ops', user: 'ben' },
      cli: ['teams', 'add', 'ops', 'ben'],
    },
    {
      name: 'removing from a team when not connected',
      op: 'teams.remove',
      input: { team: 'ops', user: 'ben' },
      cli: ['teams', 'remove', 'ops', 'ben'],
    },
  ];
}

function modelCases(): Case[] {
  const set = (name: string, input: Record<string, string>, cli: string[]): Case => ({
    name,
    op: 'chatModel.set',
    input,
    cli: ['config', 'set', ...cli],
  });
  return [
    { name: 'the chat model settings', op: 'chatModel.get', input: {}, cli: ['config', 'get'] },
    { name: 'testing no chat model', op: 'chatModel.test', input: {}, cli: ['config', 'test'] },
    set('a base URL (normalised)', { baseUrl: 'http://127.0.0.1:9/v1/' }, [
      'model.baseUrl',
      'http://127.0.0.1:9/v1/',
    ]),
    set('a key: only whether one is set comes back', { key: 'sk-parity-0001' }, [
      'model.key',
      'sk-parity-0001',
    ]),
    set('clearing the key', { key: '' }, ['model.key', '']),
    set('clearing the base URL', { baseUrl: '' }, ['model.baseUrl', '']),
    set('a base URL that is not http', { baseUrl: 'ftp://models.example' }, [
      'model.baseUrl',
      'ftp://models.example',
    ]),
    set('a model name over 200 characters', { model: LONG_NAME }, ['model.name', LONG_NAME]),
  ];
}

export function teamCases(_w: ParityWorld): Case[] {
  return [...syncCases(), ...memberCases(), ...modelCases()];
}
