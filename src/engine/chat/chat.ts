/**
 * Chat threads, kept locally per user. Each turn runs the read injection (the same function agents
 * use), adds the current facts of the entities the question names (chat-facts.ts, docs/FACTS.md
 * [K15]) and records the memories it used, or why it used none. With no chat model configured, the
 * answer is the cited passages themselves, with the question's words marked.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatSendResult,
  ChatThread,
  ChatThreadSummary,
  ChatTurn,
  FactMemory,
  Passage,
} from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import type { Citation, StorageKind } from '#shared/types.ts';
import type { Db } from '../db/driver.ts';
import { writeTx } from '../db/driver.ts';
import { queryTerms } from '../search/keyword.ts';
import { isRunWord } from '../search/scripts.ts';
import type { Answerer } from './chat-model.ts';

/** What the read injection hands the chat for one turn. */
export type Injected = {
  items: {
    id: string;
    label: string;
    storageKind: StorageKind;
    kind: string;
    score: number | null;
    body: string;
    citation: Citation | null;
    /** A fact of an entity the question names: `citation` is its source's ([K15]). */
    fact?: FactMemory;
  }[];
  reason: string | null;
};
export type Injector = (message: string, anchors: readonly string[]) => Promise<Injected>;

type TurnRow = {
  id: string;
  thread_id: string;
  role: 'user' | 'assistant';
  text: string;
  at: string;
  data: string;
};
type ThreadRow = {
  id: string;
  user_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: number;
};

export function listThreads(db: Db, user: string): ChatThreadSummary[] {
  const rows = db
    .prepare(
      `SELECT t.*, (SELECT COUNT(*) FROM chat_turns c WHERE c.thread_id = t.id) AS turns
       FROM chat_threads t WHERE user_id = ? ORDER BY updated_at DESC`,
    )
    .all(user) as ThreadRow[];
  return rows.map(summary);
}

function summary(r: ThreadRow): ChatThreadSummary {
  return { id: r.id, title: r.title, updatedAt: r.updated_at, turns: r.turns };
}

function threadRow(db: Db, user: string, id: string): ThreadRow {
  const row = db
    .prepare(
      `SELECT t.*, (SELECT COUNT(*) FROM chat_turns c WHERE c.thread_id = t.id) AS turns
       FROM chat_threads t WHERE id = ? AND user_id = ?`,
    )
    .get(id, user) as ThreadRow | undefined;
  // Another user's thread does not exist for this user.
  if (!row) throw new AppError('not-found', `No chat thread ${id}.`);
  return row;
}

export function getThread(db: Db, user: string, id: string): ChatThread {
  const row = threadRow(db, user, id);
  const turns = db
    .prepare('SELECT * FROM chat_turns WHERE thread_id = ? ORDER BY at, rowid')
    .all(id) as TurnRow[];
  return { ...summary(row), messages: turns.map(toTurn) };
}

export function deleteThread(db: Db, user: string, id: string): boolean {
  threadRow(db, user, id);
  return writeTx(db, () => {
    db.prepare('DELETE FROM chat_turns WHERE thread_id = ?').run(id);
    return db.prepare('DELETE FROM chat_threads WHERE id = ?').run(id).changes > 0;
  });
}

function toTurn(r: TurnRow): ChatTurn {
  const data = JSON.parse(r.data) as Partial<ChatTurn>;
  return {
    id: r.id,
    role: r.role,
    text: r.text,
    at: r.at,
    memories: data.memories ?? [],
    reason: data.reason ?? null,
    modelOff: data.modelOff ?? false,
    modelError: data.modelError ?? null,
    passages: data.passages ?? [],
  };
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A question word as a pattern for its whole word and its inflections ("loop": loop, loops, looped,
 * looping; "decide": decides, decided, decision is another word), never a longer word that merely
 * starts the same ("hot" is not "hotel", "record" not "recognize"). The word's own ending comes off
 * first, so "picked" finds "pick" too.
 */
function inflected(term: string): string {
  let base = term;
  for (const ending of ['ing', 'ed', 'es', 's']) {
    if (base.length - ending.length >= 3 && base.endsWith(ending) && !base.endsWith('ss')) {
      base = base.slice(0, -ending.length);
      break;
    }
  }
  if (base.length > 3 && base.endsWith('e')) base = base.slice(0, -1);
  const stem = base.length > 3 && base.endsWith('y') ? `${literal(base.slice(0, -1))}(?:y|i)` : literal(base);
  return `(?<![\\p{L}\\p{N}])${stem}(?:e|s|es|d|ed|ing|er|ers)?(?![\\p{L}\\p{N}])`;
}

/** Character ranges of the question's words (and their inflections) in a passage. */
export function highlightTerms(text: string, question: string): { start: number; end: number }[] {
  const terms = queryTerms(question);
  if (terms.length === 0) return [];
  // A word inside a run of Chinese or Japanese is marked as itself; others with their inflections.
  const patterns = terms.map((t) => (isRunWord(t) ? literal(t) : inflected(t)));
  const re = new RegExp(patterns.join('|'), 'giu');
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

function passageAnswer(question: string, injected: Injected): { text: string; passages: Passage[] } {
  const passages = injected.items.map((item) => ({
    // A fact's passage opens its source, where the fact is said.
    itemId: item.fact?.source ?? item.id,
    label: item.label,
    text: item.body,
    highlights: highlightTerms(item.body, question),
    citation: item.citation,
    ...(item.fact ? { fact: item.fact } : {}),
  }));
  const text = passages.length
    ? `The chat model is off, so here are the ${passages.length} passage${passages.length === 1 ? '' : 's'} the brain found.`
    : `The brain holds nothing on this${injected.reason ? ` (${injected.reason})` : ''}.`;
  return { text, passages };
}

export async function sendMessage(
  db: Db,
  user: string,
  input: { threadId?: string; message: string; anchors?: readonly string[] },
  inject: Injector,
  model?: { answer: Answerer; onDelta: (delta: { threadId: string; turnId: string; text: string }) => void },
): Promise<ChatSendResult> {
  const now = new Date().toISOString();
  const threadId = input.threadId ?? randomUUID();
  const answerId = randomUUID();
  if (input.threadId) threadRow(db, user, input.threadId);
  let injected: Injected;
  try {
    injected = await inject(input.message, input.anchors ?? []);
  } catch (err) {
    // Memory never breaks a turn.
    injected = { items: [], reason: `search failed: ${(err as Error).message}` };
  }
  const answer = model
    ? await modelAnswer(db, threadId, input, injected, model, answerId)
    : { ...passageAnswer(input.message, injected), modelOff: true, modelError: null };
  const userTurn: ChatTurn = {
    id: randomUUID(),
    role: 'user',
    text: input.message,
    at: now,
    memories: [],
    reason: null,
    modelOff: false,
    modelError: null,
    passages: [],
  };
  const answerTurn: ChatTurn = {
    id: answerId,
    role: 'assistant',
    text: answer.text,
    at: new Date(Date.parse(now) + 1).toISOString(),
    memories: injected.items.map(({ body: _body, ...m }) => m),
    reason: injected.items.length ? null : injected.reason,
    modelOff: answer.modelOff,
    modelError: answer.modelError,
    passages: answer.passages,
  };
  writeTx(db, () => {
    if (!input.threadId) {
      db.prepare(
        'INSERT INTO chat_threads (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ).run(threadId, user, input.message.replace(/\s+/g, ' ').slice(0, 80), now, now);
    }
    const insert = db.prepare(
      'INSERT INTO chat_turns (id, thread_id, role, text, at, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const t of [userTurn, answerTurn]) {
      const { id, role, text, at, ...data } = t;
      insert.run(id, threadId, role, text, at, JSON.stringify(data));
    }
    db.prepare('UPDATE chat_threads SET updated_at = ? WHERE id = ?').run(answerTurn.at, threadId);
  });
  return { thread: summary(threadRow(db, user, threadId)), user: userTurn, answer: answerTurn };
}

/**
 * The model's answer, streamed as deltas. Nothing injected: the brain says it holds nothing (no
 * model call). The model failing mid-answer falls back to the passages and says why.
 */
async function modelAnswer(
  db: Db,
  threadId: string,
  input: { threadId?: string; message: string },
  injected: Injected,
  model: { answer: Answerer; onDelta: (delta: { threadId: string; turnId: string; text: string }) => void },
  turnId: string,
): Promise<{ text: string; passages: Passage[]; modelOff: boolean; modelError: string | null }> {
  if (injected.items.length === 0) {
    const text = `The brain holds nothing on this${injected.reason ? ` (${injected.reason})` : ''}.`;
    model.onDelta({ threadId, turnId, text });
    return { text, passages: [], modelOff: false, modelError: null };
  }
  const history = input.threadId
    ? (
        db
          .prepare('SELECT role, text FROM chat_turns WHERE thread_id = ? ORDER BY at, rowid')
          .all(input.threadId) as { role: 'user' | 'assistant'; text: string }[]
      ).slice(-6)
    : [];
  try {
    const text = await model.answer({
      question: input.message,
      injected,
      history,
      onDelta: (delta) => model.onDelta({ threadId, turnId, text: delta }),
    });
    if (text.trim()) return { text: text.trim(), passages: [], modelOff: false, modelError: null };
    throw new Error('the model returned an empty answer');
  } catch (err) {
    const fallback = passageAnswer(input.message, injected);
    const why = err instanceof Error ? err.message : String(err);
    return {
      ...fallback,
      text: `The chat model failed (${why}), so here are the passages the brain found.`,
      modelOff: true,
      modelError: why,
    };
  }
}
