/**
 * Parity rows for knowledge.compile (src/shared/api/ops/compile.ts, docs/FACTS.md [K9]). The parity
 * workspace has no chat model, so every surface refuses alike, before it looks at what is named.
 * Not an MCP tool (agents state facts with brain_fact).
 */
import type { Case, ParityWorld } from './case.ts';

export function compileCases(w: ParityWorld): Case[] {
  return [
    { name: 'compiling without a chat model', op: 'knowledge.compile', input: {}, cli: ['compile'] },
    {
      name: 'compiling a section, forced, without a chat model',
      op: 'knowledge.compile',
      input: { ids: [w.sectionId], force: true },
      cli: ['compile', w.sectionId, '--force'],
    },
  ];
}
