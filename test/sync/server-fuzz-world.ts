/**
 * The members and devices of the sync fuzz on the real server (server-fuzz.test.ts), and the
 * random things they do. Each device is a bare replica (src/engine/sync/testing/replica.ts) of one
 * member, with that member's own device token, talking HTTP to the server through a flaky
 * transport (src/engine/sync/testing/flaky.ts). Members write by what their replica knows (their
 * local scopes, the notes they hold), as the app does; the admin changes teams and revokes and
 * re-invites members through the real API. Every step is logged; the log is printed on failure.
 */

import { moveItem } from '#engine/add/move.ts';
import { retireFile } from '#engine/knowledge/retire.ts';
import { canSee, narrowestScope, visibleScopes } from '#engine/scope.ts';
import type { Rng } from '#engine/sync/testing/fake-server.ts';
import { type FlakyTransport, flakyTransport } from '#engine/sync/testing/flaky.ts';
import { createReplica, editBody, heldNotes, type TestReplica } from '#engine/sync/testing/replica.ts';
import { HttpTransport } from '#engine/sync/transport.ts';
import { AppError } from '#shared/errors.ts';
import { originUser } from '#shared/ids.ts';
import type { TestClient } from '../server/client.ts';
import { TEST_WORKSPACE } from '../server/factories.ts';
import type { SuiteEnv } from '../server/harness.ts';
import { scopesOf } from './server-truth.ts';

export const USERS = ['u1', 'u2', 'u3'] as const;
export const TEAMS = ['red', 'blue'] as const;

export type Device = {
  user: string;
  name: string;
  replica: TestReplica;
  transport: FlakyTransport;
  /** Items and edges this device made (a revoked device keeps only those, [S32]). */
  made: Set<string>;
  linked: Set<string>;
};

export class World {
  readonly devices: Device[] = [];
  /** Every replica opened, to close at the end (revoked ones leave `devices` at once). */
  readonly opened: TestReplica[] = [];
  /** Members revoked on the server and not invited again. */
  readonly revoked = new Set<string>();
  readonly log: string[] = [];
  readonly problems: string[] = [];
  revocations = 0;
  private words = 0;
  private made = 0;

  constructor(
    readonly env: SuiteEnv,
    readonly rng: Rng,
  ) {}

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rng() * xs.length)] as T;
  }

  say(line: string): void {
    this.log.push(line);
  }

  private lastMs = 0;

  /**
   * Runs one step in a millisecond of its own. Stamps are made from wall time ([C1]), so two
   * changes in one millisecond would be ordered by chance; one step a millisecond orders them
   * by the seed alone, and a seed replays the same run. (A condition on the clock, at most 1 ms.)
   */
  async ownMillisecond(step: () => void | Promise<void>): Promise<void> {
    while (Date.now() <= this.lastMs) {
      // the wall clock moves on within a millisecond
    }
    await step();
    this.lastMs = Date.now();
  }

  /** A new device of `user` (a new invitation, or the admin's own token), as a bare replica. */
  async addDevice(user: string, teams: string[]): Promise<Device> {
    const client: TestClient = user === 'admin' ? this.env.admin : await this.env.admin.join(user, teams);
    this.made += 1;
    const replica = createReplica(`${user}-d${this.made}`, user, { workspaceId: TEST_WORKSPACE });
    this.opened.push(replica);
    // The clock's node breaks ties between equal stamps ([C1]): named after the device, not random,
    // so a seed replays the same run.
    replica.db.prepare('UPDATE sync_state SET node = ? WHERE id = 1').run(replica.name);
    const device: Device = {
      user,
      name: replica.name,
      replica,
      transport: flakyTransport(new HttpTransport(this.env.url, client.token), this.rng),
      made: new Set(),
      linked: new Set(),
    };
    this.devices.push(device);
    this.say(`device ${device.name} joins${teams.length ? ` in ${teams.join(',')}` : ''}`);
    return device;
  }

  randomTeams(): string[] {
    return TEAMS.filter(() => this.rng() < 0.5);
  }

  /** A local write: a note (new, rewritten or moved by its key), an edit, a retirement, a link, a move. */
  write(d: Device, step: number): void {
    const db = d.replica.db;
    const scopes = visibleScopes(db, d.user);
    const notes = heldNotes(db);
    const roll = this.rng();
    const word = `w${++this.words}`;
    if (roll < 0.35 || notes.length === 0) {
      const key = `k${Math.floor(this.rng() * 5)}`;
      const scope = this.pick(scopes);
      const before = new Set(earlierVersions(db));
      const id = d.replica.note(key, `${d.name} wrote ${word} at step${step}`, scope);
      d.made.add(id);
      // Rewriting a note keeps its old text as an earlier version (docs/FACTS.md [K16]): made here too.
      for (const v of earlierVersions(db)) if (!before.has(v)) d.made.add(v);
      this.say(`${step} ${d.name} note ${key} in ${scope} (${word})`);
    } else if (roll < 0.6) {
      const target = this.pick(notes);
      editBody(db, target.id, `${d.name} edited ${word} at step${step}`);
      this.say(`${step} ${d.name} edit ${target.id} (${target.scope}, ${word})`);
    } else if (roll < 0.7) {
      const target = this.pick(notes);
      retireFile(db, target.id);
      this.say(`${step} ${d.name} retire ${target.id} (${target.scope})`);
    } else if (roll < 0.85) {
      const [a, b] = [this.pick(notes), this.pick(notes)];
      if (a.id === b.id || narrowestScope([a.scope, b.scope]) === null) return;
      const type = this.pick(['RELATES_TO', 'LINKS_TO']);
      d.linked.add(d.replica.link(a.id, b.id, type, `n${step}`));
      this.say(`${step} ${d.name} link ${a.id} (${a.scope}) ${type} ${b.id} (${b.scope})`);
    } else {
      // Their own notes (the admin may move anyone's): others' are refused here first ([S24]).
      const own = notes.filter((n) => d.user === 'admin' || originUser(n.origin_actor) === d.user);
      if (own.length === 0) return;
      const target = this.pick(own);
      const to = this.pick(scopes.filter((s) => s !== target.scope));
      if (!to || !canSee(scopes, target.scope)) return;
      try {
        moveItem(db, d.user, target.id, to);
        this.say(`${step} ${d.name} move ${target.id} ${target.scope} -> ${to}`);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        this.say(`${step} ${d.name} move ${target.id} -> ${to} refused here: ${err.message}`);
      }
    }
  }

  /** The admin: a team membership change, a revocation, a member invited again, a second device. */
  async adminStep(step: number): Promise<void> {
    const admin = this.env.admin;
    const members = ['admin', ...USERS.filter((u) => !this.revoked.has(u))];
    const roll = this.rng();
    if (roll < 0.6) {
      const user = this.pick(members);
      const team = this.pick(TEAMS);
      const inTeam = (await scopesOf(this.env.db, user)).includes(`team:${team}`);
      const r = inTeam ? await admin.removeFromTeam(team, user) : await admin.addToTeam(team, user);
      if (r.status !== 200)
        this.problems.push(`${step} team change answered ${r.status}: ${JSON.stringify(r.body)}`);
      this.say(`${step} admin ${inTeam ? 'removes' : 'adds'} ${user} ${inTeam ? 'from' : 'to'} ${team}`);
    } else if (roll < 0.75 && this.revocations < 2 && members.length > 2) {
      const user = this.pick(members.filter((m) => m !== 'admin'));
      const r = await admin.revoke(user);
      if (r.status !== 200)
        this.problems.push(`${step} revoke answered ${r.status}: ${JSON.stringify(r.body)}`);
      this.revoked.add(user);
      this.revocations += 1;
      this.say(`${step} admin revokes ${user}`);
    } else if (roll < 0.9 && this.revoked.size > 0) {
      const user = this.pick([...this.revoked]);
      this.revoked.delete(user);
      this.say(`${step} admin invites ${user} again`);
      await this.addDevice(user, this.randomTeams());
    } else if (this.devices.length < 7) {
      const user = this.pick(members.filter((m) => m !== 'admin'));
      this.say(`${step} admin invites a second device of ${user}`);
      await this.addDevice(user, []);
    }
  }

  /** Fresh unreliability for one sync call: lost answers (so pages sent again), small pages. */
  shake(d: Device): string {
    const c = d.transport.control;
    c.losePush = this.pick([0, 0.25, 0.5]);
    c.losePull = this.pick([0, 0.25, 0.5]);
    c.pageSize = this.pick([null, null, 1, 2, 3, 5]);
    return `losePush=${c.losePush} losePull=${c.losePull} page=${c.pageSize ?? 'max'}`;
  }
}

/** The notes' earlier versions held here (docs/FACTS.md [K16]). */
function earlierVersions(db: TestReplica['db']): string[] {
  return (
    db
      .prepare(
        "SELECT id FROM items WHERE storage_kind = 'note' AND superseded_by IS NOT NULL AND source_key LIKE '%@v%'",
      )
      .all() as { id: string }[]
  ).map((r) => r.id);
}
