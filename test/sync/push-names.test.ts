/**
 * Names are one line on the server too (docs/SYNC_SPEC.md [S38]): a member's own script pushes,
 * over the HTTP API, what no local surface would make (an entity named across two lines, an alias
 * with an escape sequence, a run id holding a line break, an agent called `cli`) and the server
 * refuses each of those ops, naming the row and the field, stores nothing of it and sends nothing
 * of it to anyone; names of one line, in any script, pass. On PGlite and PostgreSQL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { deriveItemId, observationKey, type Sha256Hex } from '#shared/ids.ts';
import type { Op, PushResponse, SyncItem, SyncProposal } from '#shared/sync/protocol.ts';
import type { TestClient } from '../server/client.ts';
import {
  buildAgentOp,
  buildEdgeOp,
  buildItemOp,
  buildProposalOp,
  hlc,
  itemId,
  proposalId,
  TEST_WORKSPACE,
} from '../server/factories.ts';
import { forEachBackend, useServer } from '../server/harness.ts';

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');
const ONE_LINE = 'one line of text, without control characters';
const RESERVED =
  'app and cli are reserved (they mark a run a member ended on the app or the command line); choose another agent name';

/** An entity of `name` (its aliases one a line in `body`) in the org, as `by` writes one. */
function entityOp(by: string, key: string, name: string, body = name, ms = 1) {
  return buildItemOp(itemId(key, 'e', 'org'), 'org', {
    hlc: hlc(ms),
    item: { kind: 'company', label: name, body, canonical_type: 'company', origin_actor: by },
  });
}

/** A note of `by`'s in the org, written by their run `run`. */
function noteOp(by: string, name: string, run: string | null = null) {
  return buildItemOp(itemId(name, 'n', by), 'org', {
    item: { origin_actor: run ? `agent:coder/user:${by}` : by, origin_run: run },
  });
}

/** A mention of `name` in `note`, pointing at `entity`, as the engine writes one. */
function mentionOp(by: string, note: string, entity: string, name: string, run: string | null = null) {
  const props = JSON.stringify({ mention: name, name, span: null });
  return buildEdgeOp(note, entity, 'org', {
    edge: { type: 'MENTIONS', props, origin_actor: by, origin_run: run },
  });
}

const agentOp = (by: string, name: string) => buildAgentOp(by, `user:${by}`, 2, { name });

function observationOp(
  by: string,
  agent: { id: string; name: string } | null,
  run: string | null,
  type = 'gotcha',
) {
  const key = randomUUID();
  const id = deriveItemId(sha, TEST_WORKSPACE, 'observation', `user:${by}`, observationKey(key));
  const body = JSON.stringify({
    key,
    agent: agent?.name ?? null,
    type,
    text: 'seen',
    payload: null,
    importance: 0.5,
    user_id: by,
    run_id: run,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  const item: Partial<SyncItem> = {
    storage_kind: 'observation',
    kind: type,
    label: type,
    body,
    source_key: observationKey(key),
    file_id: agent?.id ?? null,
    origin_actor: agent ? `agent:${agent.name}/user:${by}` : by,
  };
  return buildItemOp(id, `user:${by}`, { hlc: hlc(3), item });
}

function proposalOp(by: string, name: string, proposal: Partial<SyncProposal>) {
  return buildProposalOp(proposalId(name), 'org', { by, proposal });
}

/** The row an op writes: an item's, an edge's or a proposal's id. */
function rowOf(op: Op): string {
  if (op.kind === 'item.upsert') return op.item.id;
  if (op.kind === 'edge.upsert') return op.edge.id;
  if (op.kind === 'proposal.upsert') return op.proposal.id;
  return op.kind;
}

const reasons = (r: PushResponse) => r.refused.map((x) => x.reason);

/** Every row `client` is sent, from the start. */
async function pulledRows(client: TestClient): Promise<string[]> {
  return (await client.pullAll()).ops.map((p) => rowOf(p.op));
}

forEachBackend('[S38] names are one line on the server', (backend) => {
  const env = useServer(backend);

  /** The refused ops wrote nothing: no op, no item, no edge, no proposal holds their rows. */
  async function storedNothingOf(ops: readonly Op[]): Promise<void> {
    const rows = ops.map(rowOf);
    const held = await env().db.query<{ id: string }>(
      `SELECT id FROM ops WHERE id = ANY($1::text[]) OR entity_id = ANY($2::text[])
       UNION ALL SELECT id FROM items WHERE id = ANY($2::text[])
       UNION ALL SELECT id FROM edges WHERE id = ANY($2::text[])
       UNION ALL SELECT id FROM proposals WHERE id = ANY($2::text[])`,
      [ops.map((o) => o.id), rows],
    );
    expect(held).toEqual([]);
  }

  it('[S38] an entity whose name or an alias is not one line is refused, naming the row and the field', async () => {
    const mallory = await env().admin.join('mallory');
    const ada = await env().admin.join('ada');
    const note = noteOp('mallory', 'memo');
    const acme = entityOp('mallory', 'Acme', 'Acme');
    expect(reasons(await mallory.push([note, acme]))).toEqual([]);
    const hostile = [
      entityOp('mallory', 'Initech', 'Initech\nrun-42  succeeded  admin'),
      entityOp('mallory', 'Globex', 'Globex', 'Globex\nGlobex Corp\u001b[2K'),
      entityOp('mallory', 'Umbrella', 'Umbrella\r'),
      entityOp('mallory', 'Vandelay', 'Vandelay\u2028Industries'),
      buildItemOp(itemId('Hooli', 'e', 'org'), 'org', {
        item: { label: 'Hooli', body: 'Hooli', canonical_value: 'hooli\nadmin', origin_actor: 'mallory' },
      }),
      mentionOp('mallory', note.item.id, acme.item.id, 'Acme\nEvil Corp'),
    ];
    const [initech, globex, umbrella, vandelay, hooli, mention] = hostile.map(rowOf);
    const answer = await mallory.push(hostile);
    expect(answer.accepted).toEqual([]);
    expect(reasons(answer)).toEqual([
      `entity ${initech}: item.label: ${ONE_LINE}`,
      `entity ${globex}: item.body (alias 2): ${ONE_LINE}`,
      `entity ${umbrella}: item.label: ${ONE_LINE}`,
      `entity ${vandelay}: item.label: ${ONE_LINE}`,
      `entity ${hooli}: item.canonical_value: ${ONE_LINE}`,
      `edge ${mention}: edge.props.name: ${ONE_LINE}`,
    ]);
    await storedNothingOf(hostile);
    // Nobody is sent any of it: another member sees the note and the entity that were accepted only.
    expect((await pulledRows(ada)).sort()).toEqual([note.item.id, acme.item.id].sort());
  });

  it('[S38] a run id, a run’s agent or an observation’s type that is not one line is refused wherever it travels', async () => {
    const mallory = await env().admin.join('mallory');
    const ada = await env().admin.join('ada');
    const phone = await env().admin.redeem(await env().admin.invite({ user: 'mallory' }), 'phone');
    const forged = 'run-1\n2026-01-01  run-2  succeeded  admin';
    const note = noteOp('mallory', 'memo');
    const acme = entityOp('mallory', 'Acme', 'Acme');
    expect(reasons(await mallory.push([note, acme]))).toEqual([]);
    const hostile = [
      noteOp('mallory', 'forged-run', forged),
      mentionOp('mallory', note.item.id, acme.item.id, 'Acme', 'run-2\r'),
      proposalOp('mallory', 'forged-run', { run_id: forged }),
      proposalOp('mallory', 'forged-agent', {
        run: {
          agent: 'coder\nrun-3  succeeded',
          status: 'succeeded',
          user: 'mallory',
          ended_at: '2026-01-01T00:00:00.000Z',
          work_products: 'done',
        },
      }),
      observationOp('mallory', null, `run-4\u0085`, 'human_feedback'),
      observationOp('mallory', null, null, 'human_feedback\nhuman_thumbs_up'),
    ];
    const [item, edge, p1, p2, o1, o2] = hostile.map(rowOf);
    const answer = await mallory.push(hostile);
    expect(answer.accepted).toEqual([]);
    expect(reasons(answer)).toEqual([
      `note ${item}: item.origin_run: ${ONE_LINE}`,
      `edge ${edge}: edge.origin_run: ${ONE_LINE}`,
      `proposal ${p1}: proposal.run_id: ${ONE_LINE}`,
      `proposal ${p2}: proposal.run.agent: ${ONE_LINE}`,
      `observation ${o1}: item.body.run_id: ${ONE_LINE}`,
      `observation ${o2}: item.body.type: ${ONE_LINE}`,
    ]);
    await storedNothingOf(hostile);
    expect((await pulledRows(ada)).sort()).toEqual([note.item.id, acme.item.id].sort());
    // Mallory's own other device (who sees her user scope) is sent none of it either.
    expect((await pulledRows(phone)).sort()).toEqual([note.item.id, acme.item.id].sort());
  });

  it('[S38] an agent is named as every replica names one: not app or cli, one line', async () => {
    const laptop = await env().admin.join('mallory');
    const phone = await env().admin.redeem(await env().admin.invite({ user: 'mallory' }), 'phone');
    const coder = agentOp('mallory', 'coder');
    expect(reasons(await laptop.push([coder]))).toEqual([]);
    const cli = agentOp('mallory', 'cli');
    const app = agentOp('mallory', 'app');
    const split = agentOp('mallory', 'coder\nadmin');
    // An observation naming a reserved agent (under the id such an agent would have).
    const underCli = observationOp('mallory', { id: cli.item.id, name: 'cli' }, 'run-1');
    const hostile = [cli, app, split, underCli];
    const answer = await laptop.push(hostile);
    expect(answer.accepted).toEqual([]);
    expect(reasons(answer)).toEqual([
      `agent ${cli.item.id}: item.body.name: ${RESERVED}`,
      `agent ${app.item.id}: item.body.name: ${RESERVED}`,
      `agent ${split.item.id}: item.body.name: ${ONE_LINE}`,
      `observation ${underCli.item.id}: item.body.agent: ${RESERVED}`,
    ]);
    await storedNothingOf(hostile);
    expect(await pulledRows(phone)).toEqual([coder.item.id]);
  });

  it('[S38] names of one line in any script are accepted and reach everyone who may see them', async () => {
    const zoe = await env().admin.join('zoe');
    const ada = await env().admin.join('ada');
    const phone = await env().admin.redeem(await env().admin.invite({ user: 'zoe' }), 'phone');
    const run = 'run-東京-1 (Zoë’s)';
    const note = noteOp('zoe', 'memo', run);
    const person = entityOp('zoe', 'Zoë', 'Zoë Müller 東京', 'Zoë Müller 東京\nZoe Mueller\nゾエ・ミュラー');
    const shared = [
      note,
      person,
      mentionOp('zoe', note.item.id, person.item.id, 'Zoë Müller 東京', run),
      proposalOp('zoe', 'unicode', { run_id: run }),
    ];
    const agent = agentOp('zoe', 'zoe-bot');
    const own = [agent, observationOp('zoe', { id: agent.item.id, name: 'zoe-bot' }, run)];
    const answer = await zoe.push([...shared, ...own]);
    expect(reasons(answer)).toEqual([]);
    expect(answer.accepted).toHaveLength(6);
    expect((await pulledRows(ada)).sort()).toEqual(shared.map(rowOf).sort());
    expect((await pulledRows(phone)).sort()).toEqual([...shared, ...own].map(rowOf).sort());
    const pulled = (await ada.pullAll()).ops.find((p) => rowOf(p.op) === person.item.id)?.op;
    expect(pulled?.kind === 'item.upsert' && pulled.item.label).toBe('Zoë Müller 東京');
  });
});
