/**
 * A hostile member with their own device token and the HTTP API, against the operation kinds added
 * last (docs/SYNC_SPEC.md [S24]–[S37]): agent brains, facts and links, trees, erases. Each attack
 * that once worked is kept here, on PGlite and PostgreSQL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { brainKey, deriveItemId, observationKey, type Sha256Hex } from '#shared/ids.ts';
import type { SyncItem } from '#shared/sync/protocol.ts';
import { agentIdOf, buildAgentOp, buildItemOp, hlc, itemId, TEST_WORKSPACE } from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

const agentOp = (creator: string, scope: string, ms: number, name = 'coder') =>
  buildAgentOp(creator, scope, ms, { name });

/** Version `number` of `agent` in `scope`, its record saying `createdBy` made it, pushed with `origin`. */
function versionOp(
  agent: string,
  scope: string,
  number: number,
  createdBy: string,
  origin: string,
  ms: number,
) {
  const body = JSON.stringify({
    number,
    parent: null,
    brain: '{"summary":"always deploy on Fridays","sections":{}}',
    observation_ids: [],
    model: 'scripted',
    input_tokens: 1,
    output_tokens: 1,
    cached_tokens: 0,
    cost_usd: null,
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: createdBy,
  });
  const item: Partial<SyncItem> = {
    storage_kind: 'brain',
    kind: 'brain',
    label: `coder v${number}`,
    body,
    source_key: brainKey(number),
    file_id: agent,
    origin_actor: origin,
  };
  return buildItemOp(deriveItemId(sha, TEST_WORKSPACE, 'brain', agent, brainKey(number)), scope, {
    hlc: hlc(ms),
    item,
  });
}

/** `by`'s observation in `scope` under the agent item `agent`, its record naming agent `named`. */
function observationOp(by: string, scope: string, agent: string, named: string, ms: number) {
  const key = randomUUID();
  const body = JSON.stringify({
    key,
    agent: named,
    type: 'gotcha',
    text: 'the deploy script needs node 20',
    payload: null,
    importance: 0.5,
    user_id: by,
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
    origin_actor: `agent:${named}/user:${by}`,
  };
  const id = deriveItemId(sha, TEST_WORKSPACE, 'observation', `user:${by}`, observationKey(key));
  return buildItemOp(id, scope, { hlc: hlc(ms), item });
}

const reasons = (r: { refused: { reason: string }[] }) => r.refused.map((x) => x.reason);

forEachBackend('a hostile member against the newer operation kinds', (backend) => {
  const env = useServer(backend);

  it('[S37] a member cannot create an agent straight in a team or the org: only an admin shares one', async () => {
    const e = env();
    await e.admin.createTeam('eng');
    const mallory = await e.admin.join('mallory', ['eng']);
    const alice = await e.admin.join('alice', ['eng']);
    // A new agent in the team would be the `coder` every teammate without their own runs ([G12]).
    const agent = agentIdOf('mallory');
    expect(
      reasons(await mallory.push([agentOp('mallory', 'team:eng', 1), agentOp('mallory', 'org', 2)])),
    ).toEqual([
      `only a workspace admin can share agent ${agent}`,
      `only a workspace admin can share agent ${agent}`,
    ]);
    expect((await alice.pullAll()).ops).toEqual([]);
    // In their own scope it is theirs; an admin's new agent may start shared.
    expect(reasons(await mallory.push([agentOp('mallory', 'user:mallory', 3)]))).toEqual([]);
    expect(reasons(await e.admin.push([agentOp('admin', 'org', 4)]))).toEqual([]);
    expect((await alice.pullAll()).ops.map((p) => p.actor)).toEqual(['admin']);
  });

  it("[S35] a member's erase of an id out of their sight answers like a missing one and erases nothing", async () => {
    const e = env();
    const alice = await e.admin.join('alice');
    const mallory = await e.admin.join('mallory');
    const secret = itemId('secret', 'n', 'alice');
    expect(
      reasons(await alice.push([buildItemOp(secret, 'user:alice', { item: { origin_actor: 'alice' } })])),
    ).toEqual([]);
    const erase = (id: string) => ({
      id: randomUUID(),
      hlc: hlc(9),
      kind: 'item.erase' as const,
      scope: 'user:mallory',
      itemId: id,
    });
    const hidden = await mallory.push([erase(secret)]);
    const missing = await mallory.push([erase(itemId('nothing', 'n', 'alice'))]);
    expect([hidden.refused, hidden.accepted.length]).toEqual([missing.refused, missing.accepted.length]);
    const other = await e.admin.join('alice');
    expect((await other.pullAll()).ops.map((p) => p.op.kind)).toEqual(['item.upsert']);
  });

  it('[S37] a member cannot make a version of a shared agent in another member’s name', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const alice = await e.admin.join('alice');
    const agent = agentIdOf('admin');
    expect(reasons(await e.admin.push([agentOp('admin', 'org', 1)]))).toEqual([]);
    // Origin hers, record naming the admin: the version would show as the admin's synthesis.
    expect(reasons(await mallory.push([versionOp(agent, 'org', 1, 'admin', 'mallory', 2)]))).toEqual([
      'a version is made by the member who sends it: mallory, not admin',
    ]);
    expect((await alice.pullAll()).ops.map((p) => p.actor)).toEqual(['admin']);
    // In her own name she may (any member who writes the agent's scope synthesizes it).
    const own = versionOp(agent, 'org', 1, 'mallory', 'mallory', 3);
    expect(reasons(await mallory.push([own]))).toEqual([]);
    // Sent again by another member's device, the version the server holds keeps its maker.
    expect(reasons(await e.admin.push([{ ...own, id: randomUUID(), hlc: hlc(4) }]))).toEqual([]);
  });

  it('[S37] an observation names the agent it hangs under, checked against the agent the server holds', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const alice = await e.admin.join('alice');
    // The agent came in an earlier push: shared by the admin, and Mallory's own.
    const shared = agentIdOf('admin', 'bot-a');
    const own = agentIdOf('mallory', 'bot-a');
    expect(reasons(await e.admin.push([agentOp('admin', 'org', 1, 'bot-a')]))).toEqual([]);
    expect(reasons(await mallory.push([agentOp('mallory', 'user:mallory', 2, 'bot-a')]))).toEqual([]);
    // Under bot-a, naming bot-b: replicas would show it as bot-b's.
    const intoShared = observationOp('mallory', 'org', shared, 'bot-b', 3);
    const intoOwn = observationOp('mallory', 'user:mallory', own, 'bot-b', 4);
    expect(reasons(await mallory.push([intoShared, intoOwn]))).toEqual([
      `observation ${intoShared.item.id} names agent bot-b, but ${shared} is agent bot-a`,
      `observation ${intoOwn.item.id} names agent bot-b, but ${own} is agent bot-a`,
    ]);
    expect((await alice.pullAll()).ops.map((p) => p.actor)).toEqual(['admin']);
    // Named rightly, both are taken.
    expect(
      reasons(
        await mallory.push([
          observationOp('mallory', 'org', shared, 'bot-a', 5),
          observationOp('mallory', 'user:mallory', own, 'bot-a', 6),
        ]),
      ),
    ).toEqual([]);
    expect((await alice.pullAll()).ops.map((p) => p.actor)).toEqual(['admin', 'mallory']);
    // An agent pushed with the observation is checked as this push writes it.
    const fresh = agentIdOf('mallory', 'bot-c');
    const intoFresh = observationOp('mallory', 'user:mallory', fresh, 'bot-a', 8);
    expect(reasons(await mallory.push([intoFresh, agentOp('mallory', 'user:mallory', 7, 'bot-c')]))).toEqual([
      `observation ${intoFresh.item.id} names agent bot-a, but ${fresh} is agent bot-c`,
    ]);
  });
});
