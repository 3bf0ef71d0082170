/**
 * Opens the engine an MCP server acts through: one user, surface 'agent', and an embedder that is
 * a thin client to the owner process when one is alive (the app, `brain serve`, `brain mcp --http`),
 * so several agent processes never load several copies of the model; else the process's own.
 */

import { createEmbedder, type Embedder } from '#engine/embed/index.ts';
import {
  createRemoteEmbedder,
  fetchOwnerState,
  type OwnerInfo,
  readLiveOwner,
} from '#engine/embed/remote.ts';
import { Engine } from '#engine/engine.ts';
import { warmVectors } from '#engine/search/vector-client.ts';
import { resolveHome } from '#engine/workspace.ts';

export type AgentEngine = { engine: Engine; embedding: 'owner' | 'local'; owner: OwnerInfo | null };

export async function openEngineForAgent(options: {
  home?: string;
  user?: string;
  modelDir?: string;
}): Promise<AgentEngine> {
  const home = resolveHome(options.home);
  const owner = readLiveOwner(home);
  let embedder: Embedder | undefined;
  if (owner && owner.pid !== process.pid) {
    const state = await fetchOwnerState(owner);
    if (state) {
      embedder = createRemoteEmbedder(owner, {
        initialState: state,
        fallback: () => createEmbedder({ home, modelDir: options.modelDir }),
      });
    }
  }
  try {
    const engine = Engine.open({
      home,
      user: options.user,
      modelDir: options.modelDir,
      surface: 'agent',
      embedder,
    });
    // An MCP server stays up: the vector mirror loads now, not inside its first search.
    warmVectors(engine.db);
    return { engine, embedding: embedder ? 'owner' : 'local', owner: embedder ? owner : null };
  } catch (err) {
    await embedder?.close();
    throw err;
  }
}

/** The host's embedder lent to another engine: that engine's close() must not close it. */
export function lendEmbedder(embedder: Embedder): Embedder {
  return { ...embedder, close: async () => undefined };
}
