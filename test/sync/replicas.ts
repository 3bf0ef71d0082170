/**
 * Replicas of one workspace for sync tests: each a real engine on its own SQLite file, connected to
 * the test's workspace server with an invitation for its member; removed after each test.
 */
import { afterEach, expect } from 'vitest';
import type { Engine } from '#engine/engine.ts';
import { connect } from '#engine/sync/index.ts';
import { createTestWorkspace, type TestWorkspace } from '#engine/testing/test-engine.ts';
import type { SuiteEnv } from '../server/harness.ts';

export type Replica = { engine: Engine; ws: TestWorkspace };

/**
 * Call inside a describe that uses the server: `replica(user, teams)` makes a connected one (a new
 * device of `user`; `admin` makes them a workspace admin).
 */
export function useReplicas(
  env: () => SuiteEnv,
): (user: string, teams?: string[], options?: { admin?: boolean }) => Promise<Replica> {
  let made: Replica[] = [];
  afterEach(async () => {
    for (const r of made) await r.ws.cleanup();
    made = [];
  });
  return async (user, teams = [], options = {}) => {
    const ws = createTestWorkspace();
    const r = { engine: ws.open(), ws };
    made.push(r);
    const code = await env().admin.invite({ user, teams, admin: options.admin ?? false });
    expect((await connect(r.engine, env().url, code)).syncError).toBeNull();
    return r;
  };
}
