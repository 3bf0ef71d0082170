/**
 * [C7] The seeded sync fuzz against the real workspace server (in process, on PGlite and on
 * PostgreSQL): an admin and three members, each device a bare replica with its own device token,
 * make random writes (notes in the scopes their replica says they can write, edits, retirements,
 * links, moves of their own notes), while the admin adds members to teams and removes them,
 * revokes members (their replica then removes what it received) and invites them again as new
 * devices. Devices sync at random moments, in random order, through a transport that loses push
 * and pull answers (so ops and pages are sent again) and pages small. After every completed pull a device
 * holds nothing its user may not see now; after each round (everyone synced reliably until quiet)
 * and at the end every device equals the server's truth for its user's scopes, the search index is
 * in step and nothing is pending. The fake-server fuzz (fuzz.test.ts) keeps covering reordered
 * pages cheaply. Run one seed with SERVER_FUZZ_SEED=<seed> (SERVER_FUZZ_LOG=1 prints the op log of
 * a run that passes); the seed and the op log are printed on failure, and a failing seed is pinned
 * below as a named regression.
 */
import { afterEach, expect, it } from 'vitest';
import { type Rng, seededRng } from '#engine/sync/testing/fake-server.ts';
import { forEachBackend, type SuiteEnv, useServer } from '../server/harness.ts';
import { checkSettled, settle, syncStep } from './server-fuzz-sync.ts';
import { TEAMS, USERS, World } from './server-fuzz-world.ts';
import { serverState } from './server-truth.ts';

type Options = { rounds: number; steps: number };
const DEFAULT: Options = { rounds: 6, steps: 40 };
/** One run takes seconds; a loaded machine (the suites run side by side) may take several times that. */
const TIMEOUT = 180_000;

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) for (const r of w.opened) r.close();
});

async function runServerFuzz(e: SuiteEnv, seed: number, options: Options = DEFAULT): Promise<void> {
  const rng: Rng = seededRng(seed);
  const w = new World(e, rng);
  worlds.push(w);
  for (const team of TEAMS) await e.admin.createTeam(team);
  await w.addDevice('admin', []);
  for (const user of USERS) await w.addDevice(user, w.randomTeams());
  let tolerated = 0;
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (let s = 0; s < options.steps; s++) {
        const step = round * options.steps + s;
        await w.ownMillisecond(async () => {
          const roll = rng();
          if (roll < 0.08) await w.adminStep(step);
          else {
            const d = w.pick(w.devices);
            if (roll < 0.4) await syncStep(w, d, step);
            else w.write(d, step);
          }
        });
        expect(w.problems, `seed ${seed}`).toEqual([]);
      }
      await settle(w, `round ${round}`);
      tolerated += (await checkSettled(w, `round ${round}`)).tolerated;
      expect(w.problems, `seed ${seed}`).toEqual([]);
    }
    const server = await serverState(e.db);
    const lost = w.devices.reduce((n, d) => n + d.transport.lost.push + d.transport.lost.pull, 0);
    w.say(
      `done: ${server.dump.items.length} items, ${server.dump.edges.length} edges on the server; ${w.devices.length} devices, ${w.revocations} revocations, ${lost} answers lost, ${tolerated} refused changes kept`,
    );
    if (process.env.SERVER_FUZZ_LOG) console.log(w.log.join('\n'));
    expect(server.dump.items.length).toBeGreaterThan(0);
  } catch (err) {
    console.error(`server sync fuzz failed: seed ${seed}\n${w.log.join('\n')}\n${w.problems.join('\n')}`);
    throw err;
  }
}

forEachBackend('[C7] sync fuzz on the real server', (backend) => {
  const env = useServer(backend);

  it(
    '[C7] replicas converge on the server’s truth through lost answers, team changes and revocations',
    async () => {
      const seed = Number(process.env.SERVER_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
      console.log(`[C7] server sync fuzz on ${backend.name}: seed ${seed}`);
      await runServerFuzz(env(), seed);
    },
    TIMEOUT,
  );

  // Seeds that failed, kept as they are (server-regressions.test.ts replays each sequence alone).
  const pinned: [number, string][] = [
    [23, 'an edit refused because the author had moved the note does not undo the move'],
    [7, 'a refused move of one’s own note into a team leaves the note as the server has it'],
    [10, 'a member invited again whose rewrite of an old note was refused takes it back from the server'],
    [59, 'a team note its author pushed and never pulled back leaves their replica with the team'],
    [
      1276447793,
      'an edge rewritten after one of its ends moved to another team is sent, refused by the server and taken back',
    ],
    [
      681621069,
      'a move refused after its author left the team, whose evicting pages were lost, is taken back once they are in the team again',
    ],
  ];
  for (const [seed, what] of pinned) {
    it(`[C7] regression, seed ${seed}: ${what}`, () => runServerFuzz(env(), seed), TIMEOUT);
  }
});
