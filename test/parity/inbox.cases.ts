/**
 * Parity rows for the inbox and runs (src/shared/api/ops/inbox.ts). The world gets two finished
 * runs (one of another member: an admin lists every run) and proposals in review; every row first
 * puts the proposals back as they were, so the approval and the rejection each surface makes start
 * from the same inbox.
 */
import { type Db, writeTx } from '#engine/db/driver.ts';
import { findOrCreateEntity } from '#engine/knowledge/graph.ts';
import { addDuplicateCard } from '#engine/knowledge/review-cards.ts';
import type { Case, ParityWorld } from './case.ts';

/** A row with what must hold before each surface's call (test/parity.test.ts runs it first). */
export type InboxCase = Case & { before: () => void };

const RUN = 'parity-run';
const ENDED = '2026-11-30T10:00:00.000Z';
const WORK = 'Checked the Lisbon lease.\n\nDana owns the renewal; the lease ends in March 2027.';

/** id, label, body, scope, first state: all from one run, in review for low confidence. */
type Seed = [id: string, label: string, body: string, scope: string, state: string];

const PROPOSALS: readonly Seed[] = [
  ['parity-approve', 'Renewal owner', 'Dana owns the lease renewal.', 'org', 'pending'],
  ['parity-reject', 'Lease end', 'The lease ends in March 2027.', 'org', 'pending'],
  ['parity-decided', 'Office city', 'The office is in Lisbon.', 'org', 'rejected'],
  ['parity-private', 'Dana prefers calls', 'Dana prefers a call to an email.', 'user:dana', 'pending'],
];
const EDITED = 'Dana owns the renewal of the Lisbon lease.';

function seedRuns(db: Db, workspaceId: string, user: string): void {
  const run = db.prepare(
    `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, started_at, ended_at, updated_at)
     VALUES (?, ?, ?, 'parity-agent', 'succeeded', ?, 'done', NULL, ?, ?)`,
  );
  run.run(RUN, workspaceId, user, WORK, ENDED, ENDED);
  run.run('parity-run-dana', workspaceId, 'dana', 'Nothing to keep.', '2026-11-29T10:00:00.000Z', ENDED);
  db.prepare(
    `INSERT INTO writeback_passes (run_id, state, model, proposed, written, reviewed, skipped, started_at, finished_at)
     VALUES (?, 'done', 'scripted', 4, 0, 4, 0, ?, ?)`,
  ).run(RUN, ENDED, ENDED);
}

/** Puts every proposal back in its first state, undecided by anyone (an approval's note stays). */
function reset(db: Db): void {
  const put = db.prepare(
    `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, decision, reason,
       state, created_at)
     VALUES (?, ?, ?, NULL, 'fact', ?, ?, ?, 0.6, 'review', 'low confidence (0.60 < 0.75)', ?, ?)
     ON CONFLICT (id) DO UPDATE SET label = excluded.label, body = excluded.body, state = excluded.state,
       item_id = NULL, edited = 0, decided_by = NULL, decided_at = NULL, reject_reason = NULL`,
  );
  PROPOSALS.forEach(([id, label, body, scope, state], ordinal) => {
    put.run(id, RUN, ordinal, label, body, scope, state, ENDED);
  });
}

/**
 * A Possible duplicate card on the world's lease file (docs/FACTS.md [K12]), as the compile pass
 * adds it, with one candidate face (no claims); `reset` puts it back to pending.
 */
function seedCard(w: ParityWorld): { id: string; reset: () => void } {
  const { db, workspaceId, user } = w.engine;
  const file = (db.prepare('SELECT file_id FROM items WHERE id = ?').get(w.sectionId) as { file_id: string })
    .file_id;
  const version = (db.prepare('SELECT version FROM items WHERE id = ?').get(file) as { version: number })
    .version;
  const origin = { actor: `compile/user:${user}`, source: 'compile', run: `compile:${file}:${version}` };
  const id = writeTx(db, () => {
    const face = findOrCreateEntity(
      db,
      workspaceId,
      { name: 'Lisbon Office Lease', kind: 'project', normalised: 'lisbon office lease', scope: 'org' },
      origin,
      '2026-11-30T10:00:00.000Z',
    );
    return addDuplicateCard(db, workspaceId, {
      source: file,
      sourceVersion: version,
      name: 'Lisbon lease',
      kind: 'project',
      candidates: [{ id: face.row.id, label: face.row.label, score: 0.77 }],
      facts: [
        {
          statement: 'The lease ends in March 2027.',
          attribute: 'term',
          validAt: null,
          quote: 'ends in March 2027',
        },
      ],
      origin,
    });
  });
  const reset = () =>
    db
      .prepare(
        "UPDATE review_cards SET state = 'pending', decision = NULL, decided_by = NULL, decided_at = NULL WHERE id = ?",
      )
      .run(id);
  return { id, reset };
}

export function inboxCases(w: ParityWorld): InboxCase[] {
  const { db } = w.engine;
  seedRuns(db, w.engine.workspaceId, w.engine.user);
  const card = seedCard(w);
  const before = () => {
    reset(db);
    card.reset();
  };
  // When it was decided differs by call, and so does the note an approval writes (each surface
  // writes its own).
  const decided = ['decidedAt', 'decidedBy', 'itemId'];
  const long = (n: number) => 'x'.repeat(n);
  return [
    // `brain inbox --json` adds the review cards (test/inbox-cards-cli.test.ts checks them).
    { name: 'the pending inbox', op: 'inbox.list', input: {}, cli: ['inbox'], cliOnly: ['cards'], before },
    {
      name: 'the whole inbox',
      op: 'inbox.list',
      input: { all: true },
      cli: ['inbox', '--all'],
      cliOnly: ['cards'],
      before,
    },
    { name: 'the runs, every one for an admin', op: 'runs.list', input: {}, cli: ['runs'], before },
    {
      name: 'an approval with an edited body',
      op: 'inbox.approve',
      input: { id: 'parity-approve', body: EDITED },
      cli: ['inbox', 'approve', 'parity-approve', '--edit-body', EDITED],
      fresh: decided,
      before,
    },
    {
      name: 'a rejection with a reason',
      op: 'inbox.reject',
      input: { id: 'parity-reject', reason: 'already in the lease file' },
      cli: ['inbox', 'reject', 'parity-reject', '--reason', 'already in the lease file'],
      fresh: decided,
      before,
    },
    {
      name: 'an edited body over 6000 characters',
      op: 'inbox.approve',
      input: { id: 'parity-approve', body: long(6001) },
      cli: ['inbox', 'approve', 'parity-approve', '--edit-body', long(6001)],
      before,
    },
    {
      name: 'an edited label over 300 characters',
      op: 'inbox.approve',
      input: { id: 'parity-approve', label: long(301) },
      cli: ['inbox', 'approve', 'parity-approve', '--edit-label', long(301)],
      before,
    },
    {
      name: 'a rejection without a reason',
      op: 'inbox.reject',
      input: { id: 'parity-reject', reason: '   ' },
      cli: ['inbox', 'reject', 'parity-reject', '--reason', '   '],
      before,
    },
    {
      name: 'an approval of a decided proposal',
      op: 'inbox.approve',
      input: { id: 'parity-decided' },
      cli: ['inbox', 'approve', 'parity-decided'],
      before,
    },
    { name: 'the review cards', op: 'inbox.cards', input: {}, cli: ['inbox', 'cards'], before },
    {
      name: 'the duplicate cards, one a page',
      op: 'inbox.cards',
      input: { kind: 'duplicate', offset: 0, limit: 1 },
      cli: ['inbox', 'cards', '--kind', 'duplicate', '--offset', '0', '--limit', '1'],
      before,
    },
    {
      name: 'review cards over 200 a page',
      op: 'inbox.cards',
      input: { limit: 201 },
      cli: ['inbox', 'cards', '--limit', '201'],
      before,
    },
    {
      name: 'a review card dismissed',
      op: 'inbox.resolveCard',
      input: { card: card.id, action: 'dismiss' },
      cli: ['inbox', 'resolve', card.id, 'dismiss'],
      before,
    },
    {
      name: 'a review card that does not exist',
      op: 'inbox.resolveCard',
      input: { card: 'rc_00000000000000000000', action: 'new' },
      cli: ['inbox', 'resolve', 'rc_00000000000000000000', 'new'],
      before,
    },
    {
      name: "an approval of another member's proposal",
      op: 'inbox.approve',
      input: { id: 'parity-private' },
      cli: ['inbox', 'approve', 'parity-private'],
      before,
    },
  ];
}
