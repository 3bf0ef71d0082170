/**
 * The adversarial member: an ordinary member with their own device token, a script and the HTTP
 * API tries to read, take, silence or impersonate what is not theirs ([S24]–[S33]). Every attack
 * named in the issue that made the server the authority is here, against PGlite and PostgreSQL.
 */
import { expect, it } from 'vitest';
import { PROTOCOL_HEADER, ROUTES } from '#shared/sync/protocol.ts';
import { sweepBlobs } from '../../src/server/blobs/uploads.ts';
import { TestClient } from './client.ts';
import {
  buildEdgeOp,
  buildItemOp,
  buildProposalOp,
  hlc,
  itemId,
  proposalId,
  sectionOf,
  sha256,
} from './factories.ts';
import { forEachBackend, type SuiteEnv, useServer } from './harness.ts';

const offer = new TextEncoder().encode('Offer letter for Alice: salary range 120-140k, start in March.');
const OFFER = sha256(offer);

/** Alice keeps a private offer letter (a user-scope file with its bytes) and an org note. */
async function aliceWithSecrets(e: SuiteEnv) {
  const alice = await e.admin.join('alice', ['hr']);
  const mallory = await e.admin.join('mallory', ['eng']);
  expect((await alice.putBlob(OFFER, offer)).status).toBe(201);
  const file = itemId('offer.pdf', 'f', 'alice');
  const r = await alice.push([
    buildItemOp(file, 'user:alice', { item: { blob: OFFER, format: 'pdf' } }),
    buildItemOp(itemId('handbook', 'n', 'alice'), 'org'),
  ]);
  expect(r.refused).toEqual([]);
  return { alice, mallory, file };
}

const reasons = (r: { refused: { reason: string }[] }) => r.refused.map((x) => x.reason);

forEachBackend('the server is the authority', (backend) => {
  const env = useServer(backend);

  it('[S27] a member cannot read a guessed blob by referencing it in an item of their own', async () => {
    const e = env();
    const { mallory } = await aliceWithSecrets(e);
    // About a hundred guesses, the right one among them: each refused exactly alike.
    const guesses = Array.from({ length: 99 }, (_, i) => sha256(`Offer letter: salary range ${i}`));
    guesses.splice(42, 0, OFFER);
    const ops = guesses.map((g, i) =>
      buildItemOp(itemId(`guess-${i}`, 'f', 'mallory'), 'user:mallory', { item: { blob: g } }),
    );
    const r = await mallory.push(ops);
    expect(r.accepted).toEqual([]);
    expect(reasons(r)).toEqual(guesses.map((g) => `blob ${g} not found`));
    const got = await mallory.getBlob(OFFER);
    expect(got.status).toBe(404);
    expect(got.raw).not.toContain('salary');
    expect((await mallory.headBlob(OFFER)).status).toBe(404);
  });

  it('[S27] bytes a member uploaded or can already read may be referenced; reads stay behind visible items', async () => {
    const e = env();
    const { alice, mallory } = await aliceWithSecrets(e);
    const own = new TextEncoder().encode('mallory’s own notes');
    expect((await mallory.putBlob(sha256(own), own)).status).toBe(201);
    const mine = await mallory.push([
      buildItemOp(itemId('own', 'f', 'mallory'), 'user:mallory', { item: { blob: sha256(own) } }),
    ]);
    expect(mine.refused).toEqual([]);
    // Alice shares a team file; a teammate may then reference those bytes, an outsider may not.
    const team = new TextEncoder().encode('HR policy for the team');
    await alice.putBlob(sha256(team), team);
    await alice.push([
      buildItemOp(itemId('hr.md', 'f', 'alice'), 'team:hr', { item: { blob: sha256(team) } }),
    ]);
    const carol = await e.admin.join('carol', ['hr']);
    const ok = await carol.push([
      buildItemOp(itemId('copy', 'f', 'carol'), 'user:carol', { item: { blob: sha256(team) } }),
    ]);
    expect(ok.refused).toEqual([]);
    expect((await carol.getBlob(sha256(team))).status).toBe(200);
    expect((await mallory.getBlob(sha256(team))).status).toBe(404);
  });

  it('[S27] uploads sent side by side cannot pass the quota together', async () => {
    const e = env();
    const small = await (await import('./support.ts')).startTestServer(e.db, { blobQuotaBytes: 1000 });
    try {
      const mallory = new TestClient(small.url, (await e.admin.join('mallory')).token);
      // Twenty uploads of 400 bytes at once against 1,000: two fit, every other one is refused.
      const bodies = Array.from({ length: 20 }, (_, i) => new Uint8Array(400).fill(i + 1));
      const answers = await Promise.all(bodies.map((b) => mallory.putBlob(sha256(b), b)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
      expect(answers.filter((a) => a.status === 413)).toHaveLength(18);
      const stored = await Promise.all(bodies.map((b) => small.blobs.has(sha256(b))));
      expect(stored.filter(Boolean)).toHaveLength(2);
      const used = await e.db.query<{ n: number }>(
        "SELECT sum(size)::int AS n FROM blob_uploads WHERE user_id = 'mallory'",
      );
      expect(used).toEqual([{ n: 800 }]);
    } finally {
      await small.close();
    }
  });

  it('[S27] uploads count against a quota; unreferenced ones are swept after the grace period', async () => {
    const e = env();
    const small = await (await import('./support.ts')).startTestServer(e.db, {
      blobQuotaBytes: 100,
      blobGraceMs: 60_000,
    });
    try {
      const mallory = new TestClient(small.url, (await e.admin.join('mallory')).token);
      const a = new Uint8Array(60).fill(1);
      const b = new Uint8Array(60).fill(2);
      expect((await mallory.putBlob(sha256(a), a)).status).toBe(201);
      const over = await mallory.putBlob(sha256(b), b);
      expect(over.status).toBe(413);
      expect((over.body as { error: { message: string } }).error.message).toMatch(/^Storage quota reached/);
      expect(await small.blobs.has(sha256(b))).toBe(false);
      // A referenced upload stays; an unreferenced one goes once older than the grace period.
      const kept = new Uint8Array(30).fill(3);
      await mallory.putBlob(sha256(kept), kept);
      await mallory.push([
        buildItemOp(itemId('kept', 'f', 'mallory'), 'user:mallory', { item: { blob: sha256(kept) } }),
      ]);
      expect(await sweepBlobs(e.db, small.blobs, new Date(), 60_000)).toBe(0);
      expect(await sweepBlobs(e.db, small.blobs, new Date(Date.now() + 120_000), 60_000)).toBe(1);
      expect(await small.blobs.has(sha256(a))).toBe(false);
      expect(await small.blobs.has(sha256(kept))).toBe(true);
      // The quota is free again.
      expect((await mallory.putBlob(sha256(b), b)).status).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('[S24] a member cannot take an org file and its sections into their own scope', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const bob = await e.admin.join('bob');
    const file = itemId('policy.md', 'f');
    const sections = [sectionOf(file, 'intro'), sectionOf(file, 'rules')];
    await e.admin.push([buildItemOp(file, 'org'), ...sections.map((s) => buildItemOp(s, 'org'))]);
    const bobFirst = await bob.pullAll();
    const takeover = await mallory.push([
      buildItemOp(file, 'user:mallory', { hlc: hlc(50) }),
      ...sections.map((s) => buildItemOp(s, 'user:mallory', { hlc: hlc(50) })),
    ]);
    expect(reasons(takeover)).toEqual([
      `only admin or an admin can move ${file} out of org`,
      `a section follows its file: ${file} is in org, not user:mallory`,
      `a section follows its file: ${file} is in org, not user:mallory`,
    ]);
    const later = await bob.pullAll(bobFirst.cursor);
    expect(later.evict).toEqual([]);
    // The admin can still write it: nothing was taken.
    expect(
      (await e.admin.push([buildItemOp(file, 'org', { hlc: hlc(60), item: { body: 'v2' } })])).refused,
    ).toEqual([]);
    // Editing an org item stays allowed to members, last writer wins.
    expect(
      (await mallory.push([buildItemOp(file, 'org', { hlc: hlc(70), item: { body: 'v3' } })])).refused,
    ).toEqual([]);
  });

  it('[S24] a move never hides an item from its author; an admin may move it where its author sees', async () => {
    const e = env();
    const alice = await e.admin.join('alice', ['hr']);
    await e.admin.createTeam('board');
    const note = itemId('plan', 'n', 'alice');
    await alice.push([buildItemOp(note, 'org')]);
    const r = await e.admin.push([buildItemOp(note, 'team:board', { hlc: hlc(2) })]);
    expect(reasons(r)).toEqual(['admin cannot write in scope team:board']);
    await e.admin.addToTeam('board', 'admin');
    const hidden = await e.admin.push([buildItemOp(note, 'team:board', { hlc: hlc(3) })]);
    expect(reasons(hidden)).toEqual([`moving ${note} to team:board would hide it from its author alice`]);
    await e.admin.addToTeam('hr', 'admin');
    expect((await e.admin.push([buildItemOp(note, 'team:hr', { hlc: hlc(4) })])).refused).toEqual([]);
    const moved = await e.db.query<{ scope: string }>('SELECT scope FROM items WHERE id = $1', [note]);
    expect(moved[0]?.scope).toBe('team:hr');
  });

  it('[S24] a move that meets a newer edit is refused with that edit’s clock, to be sent again after it', async () => {
    const e = env();
    const alice = await e.admin.join('alice');
    const bob = await e.admin.join('bob');
    const note = itemId('draft', 'n', 'alice');
    await alice.push([buildItemOp(note, 'org', { hlc: hlc(1) })]);
    await bob.push([buildItemOp(note, 'org', { hlc: hlc(30), item: { body: 'bob edited' } })]);
    const late = await alice.push([buildItemOp(note, 'user:alice', { hlc: hlc(20) })]);
    expect(late.refused).toEqual([
      { id: expect.any(String), reason: expect.stringMatching(/^stale move/), newer: hlc(30) },
    ]);
    const again = await alice.push([buildItemOp(note, 'user:alice', { hlc: hlc(31) })]);
    expect(again.refused).toEqual([]);
    // Bob's edit is in, and the note is out of his sight.
    const bobPulls = await bob.pullAll();
    expect(bobPulls.ops.filter((o) => o.op.kind === 'item.upsert' && o.op.item.id === note)).toEqual([]);
  });

  it('[S28] an operation with a far-future clock is refused with a reason; a near one is accepted', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const now = e.server.clock.now().getTime();
    const far = buildItemOp(itemId('far', 'n', 'mallory'), 'org', { hlc: '9999999999999-000000-evil' });
    const ahead6 = buildItemOp(itemId('six', 'n', 'mallory'), 'org', {
      hlc: `${now + 6 * 60_000}-000000-evil`,
    });
    const ahead4 = buildItemOp(itemId('four', 'n', 'mallory'), 'org', {
      hlc: `${now + 4 * 60_000}-000000-evil`,
    });
    const r = await mallory.push([far, ahead6, ahead4]);
    expect(r.refused.map((x) => x.id)).toEqual([far.id, ahead6.id]);
    expect(r.refused[0]?.reason).toMatch(/^clock ahead: .* correct this device's clock$/);
    expect(r.accepted.map((a) => a.id)).toEqual([ahead4.id]);
  });

  it('[S26] a member cannot forge the author of what they write', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const forged = (origin: string, name: string) =>
      buildItemOp(itemId(name, 'n', 'mallory'), 'org', {
        item: { origin_actor: origin, origin_source: 'writeback', origin_run: 'run-approved' },
      });
    const r = await mallory.push([
      forged('admin', 'a'),
      forged('writeback:claude/user:admin', 'b'),
      forged('agent:x/user:admin/user:mallory', 'c'),
      forged('audit', 'd'),
      forged('writeback:claude/user:mallory', 'e'),
      forged('agent:co\u001b[2Kder/user:mallory', 'f'),
      forged('agent:co\u2028der/user:mallory', 'g'),
    ]);
    expect(reasons(r)).toEqual([
      "origin names admin, but this device is mallory's",
      "origin names admin, but this device is mallory's",
      'origin "agent:x/user:admin/user:mallory" names no member',
      "origin names audit, but this device is mallory's",
      // A label is one line: a control character or a line separator names no member (quoted, not echoed).
      'origin "agent:co\\u001b[2Kder/user:mallory" names no member',
      'origin "agent:co\u2028der/user:mallory" names no member',
    ]);
    expect(r.accepted).toHaveLength(1);
    // An edit of the admin's note keeps the admin's origin; claiming it for her own note does not work.
    const adminNote = itemId('rule');
    await e.admin.push([buildItemOp(adminNote, 'org')]);
    expect(
      (await mallory.push([buildItemOp(adminNote, 'org', { hlc: hlc(5), item: { body: 'edited' } })]))
        .refused,
    ).toEqual([]);
    const swap = await mallory.push([
      buildItemOp(adminNote, 'org', { hlc: hlc(6), item: { origin_actor: 'agent:claude/user:admin' } }),
    ]);
    expect(reasons(swap)).toEqual(["origin names admin, but this device is mallory's"]);
    // Edges and proposals too.
    const hers = itemId('e', 'n', 'mallory');
    await mallory.push([buildItemOp(hers, 'org')]);
    const edge = await mallory.push([
      buildEdgeOp(adminNote, hers, 'org', { edge: { origin_actor: 'admin' } }),
      buildProposalOp(proposalId('forged'), 'org', { by: 'admin' }),
    ]);
    expect(reasons(edge)).toEqual([
      "origin names admin, but this device is mallory's",
      "a proposal names its run's member: admin is not mallory",
    ]);
  });

  it('[S26] indexing someone else’s file: its sections and their edges may carry the file’s origin', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const file = itemId('guide.md', 'f');
    await e.admin.push([buildItemOp(file, 'org')]);
    const s1 = sectionOf(file, 'one', 'admin');
    const s2 = sectionOf(file, 'two', 'admin');
    const r = await bob.push([
      buildItemOp(s1, 'org'),
      buildItemOp(s2, 'org'),
      buildEdgeOp(file, s1, 'org', { edge: { type: 'HAS_SECTION' } }),
      buildEdgeOp(s2, s1, 'org', { edge: { type: 'SUPERSEDES' } }),
    ]);
    expect(r.refused).toEqual([]);
    // …but not on an edge of any other kind.
    const other = await bob.push([buildEdgeOp(file, s1, 'org', { edge: { type: 'LINKS_TO' } })]);
    expect(reasons(other)).toEqual(["origin names admin, but this device is bob's"]);
  });

  it('[S25] ids of others’ items are refused exactly like unused ones: no existence oracle', async () => {
    const e = env();
    const { mallory } = await aliceWithSecrets(e);
    const existing = itemId('offer.pdf', 'f', 'alice');
    const unused = itemId('never-added.pdf', 'f', 'alice');
    const r = await mallory.push([
      buildItemOp(existing, 'user:mallory', { item: { origin_actor: 'mallory' } }),
      buildItemOp(unused, 'user:mallory', { item: { origin_actor: 'mallory' } }),
    ]);
    expect(reasons(r).map((x) => x.replace(/[fn]_[0-9a-f]{20}/, '<id>'))).toEqual([
      'item id <id> is not the id of its source key in your namespace',
      'item id <id> is not the id of its source key in your namespace',
    ]);
    // A section of a file out of sight is refused like a section of no file.
    const sections = await mallory.push([
      buildItemOp(sectionOf(existing, 'x', 'mallory'), 'user:mallory'),
      buildItemOp(sectionOf(unused, 'x', 'mallory'), 'user:mallory'),
    ]);
    expect(reasons(sections)).toEqual([`file ${existing} not found`, `file ${unused} not found`]);
    // An edge id that is not its ends' is refused whatever it names.
    const e1 = buildEdgeOp(itemId('handbook', 'n', 'alice'), itemId('handbook', 'n', 'alice'), 'org', {
      edge: { id: 'g_00000000000000000000', origin_actor: 'mallory' },
    });
    expect(reasons(await mallory.push([e1]))).toEqual([
      'edge id g_00000000000000000000 is not the id of its ends, type and props',
    ]);
  });

  it('[S25] a tree record is changed only by its creator, and no link ends at one', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    const record = itemId('tree_0123456789abcdef', 't', 'admin');
    const body = { item: { kind: 'tree', body: '{"v":1}', origin_source: 'tree' } };
    expect((await e.admin.push([buildItemOp(record, 'org', body)])).refused).toEqual([]);
    // Mallory may edit an org note of the admin's (last writer wins), but not the tree's record.
    const edit = await mallory.push([
      buildItemOp(record, 'org', { hlc: hlc(5), item: { ...body.item, body: '{"v":1,"fake":true}' } }),
    ]);
    expect(reasons(edit)).toEqual([`tree ${record} is admin's: only they change its record`]);
    // Nor retire it.
    const retire = await mallory.push([
      buildItemOp(record, 'org', {
        hlc: hlc(6),
        item: { ...body.item, retired_at: '2026-01-02T00:00:00.000Z' },
      }),
    ]);
    expect(reasons(retire)).toEqual([`tree ${record} is admin's: only they change its record`]);
    // A record of her own is hers; a link to or from a record is refused like a missing end.
    const hers = itemId('tree_0123456789abcdef', 't', 'mallory');
    const note = itemId('pointer', 'n', 'mallory');
    const r = await mallory.push([
      buildItemOp(hers, 'org', body),
      buildItemOp(note, 'org'),
      buildEdgeOp(note, record, 'org'),
    ]);
    expect(reasons(r)).toEqual([`edge end ${record} not found`]);
  });

  it('[S25] two members’ files at the same path are two items; both sync', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const mine = itemId('/home/shared/roadmap.md', 'f', 'admin');
    const his = itemId('/home/shared/roadmap.md', 'f', 'bob');
    expect(mine).not.toBe(his);
    expect((await e.admin.push([buildItemOp(mine, 'org')])).refused).toEqual([]);
    expect((await bob.push([buildItemOp(his, 'org')])).refused).toEqual([]);
    const pulled = await bob.pullAll();
    expect(pulled.ops.map((o) => (o.op.kind === 'item.upsert' ? o.op.item.id : ''))).toEqual([mine, his]);
  });

  it('[S33] a member sees their teams and teammates only; an admin sees everyone', async () => {
    const e = env();
    const alice = await e.admin.join('alice', ['hr']);
    await e.admin.join('carol', ['hr', 'board']);
    await e.admin.join('dave', ['board']);
    const seen = (await alice.members()).body;
    expect(seen.teams).toEqual([{ id: 'hr', members: ['alice', 'carol'] }]);
    expect(seen.members.map((m) => [m.user, m.teams])).toEqual([
      ['alice', ['hr']],
      ['carol', ['hr']],
    ]);
    const all = (await e.admin.members()).body;
    expect(all.teams.map((t) => t.id)).toEqual(['board', 'hr']);
    expect(all.members.map((m) => m.user)).toEqual(['admin', 'alice', 'carol', 'dave']);
  });

  it('[S31] a replica that speaks an older protocol is told to update', async () => {
    const e = env();
    const old = await e.admin.request('GET', ROUTES.me, undefined, { [PROTOCOL_HEADER]: '1' });
    expect(old.status).toBe(426);
    expect((old.body as { error: { message: string } }).error.message).toMatch(/update Org Brain/);
    // Protocol 3 knows no erase ([S35]): it would keep what others erased; 4 sends no ack with a push ([S36]).
    const three = await e.admin.request('GET', ROUTES.me, undefined, { [PROTOCOL_HEADER]: '3' });
    expect(three.status).toBe(426);
    expect((three.body as { error: { message: string } }).error.message).toBe(
      'This workspace server speaks sync protocol 6 and this Org Brain speaks 3: update Org Brain on this device.',
    );
    const four = await e.admin.request('GET', ROUTES.me, undefined, { [PROTOCOL_HEADER]: '4' });
    expect(four.status).toBe(426);
    // Protocol 5 knows no agent brains ([S37]): it would refuse their records as malformed.
    const five = await e.admin.request('GET', ROUTES.me, undefined, { [PROTOCOL_HEADER]: '5' });
    expect(five.status).toBe(426);
    const none = await new TestClient(e.url).request(
      'POST',
      ROUTES.redeem,
      { code: 'whatever-code', device: 'd' },
      {
        [PROTOCOL_HEADER]: '',
      },
    );
    expect(none.status).toBe(426);
    const ok = await e.admin.request('GET', ROUTES.me);
    expect(ok.status).toBe(200);
  });

  it('[S1] a revoked token is a 401 whose reason says revoked', async () => {
    const e = env();
    const mallory = await e.admin.join('mallory');
    await e.admin.revoke('mallory');
    const r = await mallory.me();
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: { code: 'forbidden', reason: 'revoked' } });
  });
});
