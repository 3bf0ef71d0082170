import { describe, expect, it } from 'vitest';
import type { Engine } from '#engine/engine.ts';
import { createAgentContext, fixedAgentName } from './context.ts';

const engine = { user: 'tester' } as unknown as Engine;

describe('agent names app and cli are reserved (docs/AGENTS.md [G2])', () => {
  it('refuses them as --agent, also once cleaned, naming the reserved names', () => {
    for (const name of ['app', 'cli', '-cli-', ' app '])
      expect(() => fixedAgentName(name), name).toThrow('--agent: app and cli are reserved');
    expect(fixedAgentName('cli-bot')).toBe('cli-bot');
    expect(fixedAgentName(undefined)).toBeUndefined();
  });

  it('runs an MCP client that calls itself so as mcp-client', () => {
    for (const client of ['cli', 'app', 'cli!'])
      expect(createAgentContext(engine, { clientName: () => client }).agentName(), client).toBe('mcp-client');
    expect(createAgentContext(engine, { clientName: () => 'claude-code' }).agentName()).toBe('claude-code');
  });
});
