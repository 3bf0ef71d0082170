/** Workspace, invitations, teams, tokens and revocation, through HTTP. */
import { expect, it } from 'vitest';
import { ROUTES } from '#shared/sync/protocol.ts';
import { TestClient } from './client.ts';
import { buildItemOp, itemId } from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';

forEachBackend('membership', (backend) => {
  const env = useServer(backend);

  it('[S18] health and readiness answer without a token', async () => {
    const anon = new TestClient(env().url);
    expect((await anon.request('GET', ROUTES.health)).body).toEqual({ ok: true });
    expect((await anon.request('GET', ROUTES.ready)).body).toEqual({ ok: true });
  });

  it('[S15] the first invitation makes the admin; me and members describe the workspace', async () => {
    const { admin } = env();
    const me = await admin.me();
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: 'admin', isAdmin: true, teams: [], scopes: ['org', 'user:admin'] });
    expect(me.body.workspace.id).toMatch(/^w_/);
    const members = await admin.members();
    expect(members.body.members).toEqual([{ user: 'admin', isAdmin: true, teams: [], devices: 1 }]);
  });

  it('[S15] an invitation is single use, may name a user and teams, and expires', async () => {
    const { admin, url, server } = env();
    const code = await admin.invite({ user: 'bob', teams: ['sales'] });
    const bob = await new TestClient(url).redeem(code, 'bob-laptop');
    expect(bob.user).toBe('bob');
    expect((await bob.me()).body).toMatchObject({ isAdmin: false, teams: ['sales'] });
    const again = await new TestClient(url).request('POST', ROUTES.redeem, { code, device: 'x' });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ error: { code: 'forbidden' } });
    const late = await admin.invite({ user: 'carol' });
    server.clock.advance(8 * 24 * 3600 * 1000);
    const expired = await new TestClient(url).request('POST', ROUTES.redeem, { code: late, device: 'x' });
    expect(expired.status).toBe(403);
    expect((expired.body as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('[S15] an invitation without a user makes a new member; a second one for a user adds a device', async () => {
    const { admin, url } = env();
    const anon = await new TestClient(url).redeem(await admin.invite(), 'd1');
    expect(anon.user).toMatch(/^member-[0-9a-f]{8}$/);
    await admin.join('bob');
    await admin.join('bob');
    const bob = (await admin.members()).body.members.find((m) => m.user === 'bob');
    expect(bob?.devices).toBe(2);
  });

  it('[S15] only admins invite, create teams, change membership and revoke', async () => {
    const { admin } = env();
    const bob = await admin.join('bob');
    for (const r of [
      await bob.request('POST', ROUTES.invite, {}),
      await bob.createTeam('x'),
      await bob.addToTeam('x', 'bob'),
      await bob.removeFromTeam('x', 'bob'),
      await bob.revoke('admin'),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: { code: 'forbidden' } });
    }
  });

  it('[S15] teams: create, add and remove members, listed in members', async () => {
    const { admin } = env();
    await admin.join('bob');
    expect((await admin.createTeam('eng')).status).toBe(201);
    expect((await admin.createTeam('eng')).status).toBe(200);
    expect((await admin.addToTeam('eng', 'bob')).status).toBe(200);
    expect((await admin.addToTeam('nope', 'bob')).status).toBe(404);
    expect((await admin.addToTeam('eng', 'nobody')).status).toBe(404);
    let members = (await admin.members()).body;
    expect(members.teams).toEqual([{ id: 'eng', members: ['bob'] }]);
    expect((await admin.removeFromTeam('eng', 'bob')).status).toBe(200);
    expect((await admin.removeFromTeam('eng', 'bob')).status).toBe(404);
    members = (await admin.members()).body;
    expect(members.teams).toEqual([{ id: 'eng', members: [] }]);
  });

  it('[S1] a missing, unknown or malformed token is refused with 401 and says why', async () => {
    const { url } = env();
    const none = await new TestClient(url).pull();
    expect(none.status).toBe(401);
    expect(none.body.error.message).toMatch(/Missing device token/);
    const wrong = await new TestClient(url, 'obt_not-a-token').pull();
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/Unknown device token/);
  });

  it('[S1] the Bearer scheme is matched in any case, as HTTP says', async () => {
    const { url, admin } = env();
    const bob = await admin.join('bob');
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const r = await new TestClient(url).request('GET', ROUTES.me, undefined, {
        authorization: `${scheme} ${bob.token}`,
      });
      expect(r.status).toBe(200);
    }
  });

  it('[S14] revoking a user refuses all their devices, removes them from teams and the workspace', async () => {
    const { admin, db } = env();
    const bob1 = await admin.join('bob', ['eng']);
    const bob2 = await admin.join('bob');
    await bob1.push([buildItemOp('n_00000000000000000001', 'team:eng')]);
    const r = await admin.revoke('bob');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ user: 'bob', revokedDevices: 2 });
    for (const c of [bob1, bob2]) {
      const pull = await c.pull();
      expect(pull.status).toBe(401);
      expect(pull.body.error.message).toMatch(/revoked/);
      await expect(c.push([buildItemOp('n_00000000000000000002')])).rejects.toThrow(/401/);
    }
    const members = (await admin.members()).body;
    expect(members.members.map((m) => m.user)).toEqual(['admin']);
    expect(members.teams).toEqual([{ id: 'eng', members: [] }]);
    const holdings = await db.query(
      "SELECT 1 FROM device_holdings h JOIN devices d ON d.id = h.device_id WHERE d.user_id = 'bob'",
    );
    expect(holdings).toEqual([]);
    expect((await admin.revoke('admin')).status).toBe(422);
    expect((await admin.revoke('ghost')).status).toBe(404);
  });

  it('[S14] a revoked user comes back only through a new invitation, as a new device', async () => {
    const { admin } = env();
    const bob = await admin.join('bob', ['eng']);
    await admin.revoke('bob');
    const back = await admin.join('bob');
    expect((await back.me()).body).toMatchObject({ user: 'bob', teams: [] });
    expect((await bob.me()).status).toBe(401);
  });

  it('[S9] membership, scope and token changes are in the audit log', async () => {
    const { admin, db } = env();
    const bob = await admin.join('bob', ['eng']);
    await admin.removeFromTeam('eng', 'bob');
    await admin.addToTeam('eng', 'bob');
    const op1 = buildItemOp(itemId('moved', 'n', 'bob'), 'org');
    await bob.push([op1]);
    await bob.push([
      buildItemOp(itemId('moved', 'n', 'bob'), 'team:eng', { hlc: '1767225600002-000000-node1' }),
    ]);
    await admin.revoke('bob');
    const rows = await db.query<{ action: string; subject: string | null; actor: string | null }>(
      'SELECT action, subject, actor FROM audit_log ORDER BY id',
    );
    const actions = rows.map((r) => r.action);
    for (const a of [
      'workspace.create',
      'invitation.create',
      'member.join',
      'token.issue',
      'team.create',
      'team.member.remove',
      'team.member.add',
      'item.scope',
      'token.revoke',
      'member.remove',
    ]) {
      expect(actions).toContain(a);
    }
    expect(rows.find((r) => r.action === 'item.scope')).toMatchObject({ actor: 'bob' });
  });

  it('[S1] tokens and invitation codes are stored only as hashes', async () => {
    const { admin, db } = env();
    const code = await admin.invite({ user: 'bob' });
    const bob = await new TestClient(env().url).redeem(code);
    const dump = JSON.stringify([
      await db.query('SELECT * FROM devices'),
      await db.query('SELECT * FROM invitations'),
      await db.query('SELECT * FROM audit_log'),
    ]);
    expect(dump).not.toContain(code);
    expect(dump).not.toContain(bob.token ?? 'x');
    expect(dump).not.toContain(admin.token ?? 'x');
  });
});
