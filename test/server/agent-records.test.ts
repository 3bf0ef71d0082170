/**
 * The records of agent brains on the workspace server (docs/SYNC_SPEC.md [S37]), over the protocol,
 * on PGlite and PostgreSQL, as a hostile member would push them: an agent's version is created
 * once, an observation never changes and is its recorder's, only an admin shares an agent, a
 * version follows its agent, nothing names an agent its sender cannot see (answered exactly like a
 * missing one), and no link or erase reaches a record.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { brainKey, deriveItemId, observationKey, type Sha256Hex } from '#shared/ids.ts';
import type { Op, SyncItem } from '#shared/sync/protocol.ts';
import {
  agentIdOf,
  buildAgentOp,
  buildEdgeOp,
  buildItemOp,
  hlc,
  itemId,
  TEST_WORKSPACE,
} from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

const agentOp = buildAgentOp;

function versionOp(agent: string, scope: string, number: number, brain: string, by: string, ms: number) {
  const id = deriveItemId(sha, TEST_WORKSPACE, 'brain', agent, brainKey(number));
  const body = JSON.stringify({
    number,
    parent: number > 1 ? number - 1 : null,
    brain,
    observation_ids: [],
    model: 'scripted',
    input_tokens: 10,
    output_tokens: 5,
    cached_tokens: 0,
    cost_usd: null,
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: by,
  });
  const item: Partial<SyncItem> = {
    storage_kind: 'brain',
    kind: 'brain',
    label: `coder v${number}`,
    body,
    source_key: brainKey(number),
    file_id: agent,
    origin_actor: by,
  };
  return buildItemOp(id, scope, { hlc: hlc(ms), item });
}

function observationOp(
  by: string,
  scope: string,
  agent: string | null,
  text: string,
  opts: { key?: string; userId?: string; ms?: number } = {},
) {
  const key = opts.key ?? randomUUID();
  const id = deriveItemId(sha, TEST_WORKSPACE, 'observation', `user:${by}`, observationKey(key));
  const body = JSON.stringify({
    key,
    agent: agent ? 'coder' : null,
    type: agent ? 'gotcha' : 'human_feedback',
    text,
    payload: null,
    importance: 0.5,
    user_id: opts.userId ?? by,
    run_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  const item: Partial<SyncItem> = {
    storage_kind: 'observation',
    kind: 'gotcha',
    label: 'gotcha',
    body,
    source_key: observationKey(key),
    file_id: agent,
    origin_actor: agent ? `agent:coder/user:${by}` : by,
  };
  return { key, op: buildItemOp(id, scope, { hlc: hlc(opts.ms ?? 5), item }) };
}

const reasons = (r: { refused: { reason: string }[] }) => r.refused.map((x) => x.reason);
const ids = (ops: readonly { op: Op }[]) =>
  ops.map((p) => (p.op.kind === 'item.upsert' ? p.op.item.id : p.op.kind));

forEachBackend('[S37] agent brains on the server', (backend) => {
  const env = useServer(backend);

  it("[S37] a member's agent, versions and observations reach their other device and nobody else", async () => {
    const laptop = await env().admin.join('ada');
    const desktop = await env().admin.join('ada');
    const bob = await env().admin.join('bob');
    const agent = agentIdOf('ada');
    const obs = observationOp('ada', 'user:ada', agent, 'node 20');
    const answer = await laptop.push([
      versionOp(agent, 'user:ada', 1, '{"summary":"a","sections":{}}', 'ada', 3),
      obs.op,
      agentOp('ada', 'user:ada', 2, { active: 1 }),
    ]);
    expect(reasons(answer)).toEqual([]);
    expect(ids((await desktop.pullAll()).ops).sort()).toEqual(
      [agent, obs.op.item.id, versionOp(agent, 'user:ada', 1, '', 'ada', 3).item.id].sort(),
    );
    expect((await bob.pullAll()).ops).toEqual([]);
  });

  it('[S37] a version is created once: another body of the same number is refused, and its device is sent the first', async () => {
    const laptop = await env().admin.join('ada');
    const desktop = await env().admin.join('ada');
    const agent = agentIdOf('ada');
    expect(reasons(await laptop.push([agentOp('ada', 'user:ada', 1)]))).toEqual([]);
    await desktop.pullAll();
    const first = versionOp(agent, 'user:ada', 1, '{"summary":"laptop","sections":{}}', 'ada', 2);
    expect(reasons(await laptop.push([first]))).toEqual([]);
    const second = versionOp(agent, 'user:ada', 1, '{"summary":"desktop","sections":{}}', 'ada', 9);
    expect(reasons(await desktop.push([second]))).toEqual([
      `version 1 of agent ${agent} already exists: versions never change`,
    ]);
    const pulled = (await desktop.pullAll()).ops.filter(
      (p) => p.op.kind === 'item.upsert' && p.op.item.id === first.item.id,
    );
    expect(pulled.map((p) => (p.op as typeof first).item.body)).toEqual([first.item.body]);
    // The same version again (a replica resending it) is no change of it.
    expect(reasons(await laptop.push([{ ...first, id: randomUUID(), hlc: hlc(20) }]))).toEqual([]);
  });

  it('[S37] an observation is append-only and its recorder’s; it names only an agent its sender can see', async () => {
    const ada = await env().admin.join('ada');
    const mallory = await env().admin.join('mallory');
    const agent = agentIdOf('ada');
    expect(reasons(await ada.push([agentOp('ada', 'user:ada', 1)]))).toEqual([]);
    const obs = observationOp('ada', 'user:ada', agent, 'the truth', { ms: 2 });
    expect(reasons(await ada.push([obs.op]))).toEqual([]);
    const changed = observationOp('ada', 'user:ada', agent, 'rewritten', { key: obs.key, ms: 30 });
    expect(reasons(await ada.push([changed.op]))).toEqual([
      `observation ${obs.op.item.id} already exists: observations are append-only`,
    ]);
    // Mallory's observation claiming to be Ada's, and one naming Ada's private agent.
    const forged = observationOp('mallory', 'user:mallory', null, 'from ada', { userId: 'ada' });
    const intoAda = observationOp('mallory', 'user:mallory', agent, 'hello');
    const missing = observationOp('mallory', 'user:mallory', agentIdOf('nobody'), 'hello');
    expect(reasons(await mallory.push([forged.op, intoAda.op, missing.op]))).toEqual([
      'an observation is recorded by the member who sends it: mallory, not ada',
      `agent ${agent} not found`,
      `agent ${agentIdOf('nobody')} not found`,
    ]);
    // A version under Ada's agent, and an agent id in Ada's namespace: refused like missing ones.
    expect(
      reasons(
        await mallory.push([
          versionOp(agent, 'user:ada', 1, '{"summary":"x","sections":{}}', 'mallory', 3),
          agentOp('ada', 'user:mallory', 4),
        ]),
      ),
    ).toEqual([
      'mallory cannot write in scope user:ada',
      `item id ${agent} is not the id of its source key in your namespace`,
    ]);
  });

  it('[S37] only an admin shares an agent; its versions follow it; links and erases never reach a record', async () => {
    await env().admin.createTeam('eng');
    const ada = await env().admin.join('ada', ['eng']);
    const bob = await env().admin.join('bob', ['eng']);
    const agent = agentIdOf('ada');
    const v1 = versionOp(agent, 'user:ada', 1, '{"summary":"a","sections":{}}', 'ada', 2);
    expect(reasons(await ada.push([agentOp('ada', 'user:ada', 1), v1]))).toEqual([]);
    expect(reasons(await ada.push([agentOp('ada', 'team:eng', 5)]))).toEqual([
      `only a workspace admin can share agent ${agent}`,
    ]);
    const admin = env().admin;
    // The admin cannot see Ada's own agent to share it: it answers as absent (a new id in their namespace).
    expect(reasons(await admin.push([agentOp('ada', 'org', 6)]))).toEqual([
      `item id ${agent} is not the id of its source key in your namespace`,
    ]);
    // A version in another scope than its agent's is refused.
    expect(
      reasons(
        await ada.push([{ ...v1, id: randomUUID(), scope: 'org', item: { ...v1.item, scope: 'org' } }]),
      ),
    ).toEqual([`a version follows its agent: ${agent} is in user:ada, not org`]);
    const note = itemId('plan', 'n', 'ada');
    const linked = await ada.push([
      buildItemOp(note, 'user:ada', { item: { origin_actor: 'ada' } }),
      buildEdgeOp(note, agent, 'user:ada', { edge: { origin_actor: 'ada' } }),
      { id: randomUUID(), hlc: hlc(8), kind: 'item.erase', scope: 'user:ada', itemId: agent },
    ]);
    expect(reasons(linked)[0]).toBe(`edge end ${agent} not found`);
    expect(reasons(linked)).toHaveLength(2);
    expect((await bob.pullAll()).ops).toEqual([]);
  });
});
