/**
 * `brain ask "<question>"` and `brain chat list|show|delete|remember`: the contract's chat
 * operations (src/shared/api/ops/chat.ts), the same turns and threads as the app's Chat screen.
 * With a chat model the answer streams to the terminal as it comes (`chat.delta`).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { ChatDelete, ChatRemember, ChatSend, ChatThreadGet, ChatThreads } from '#shared/api/ops/chat.ts';
import type { ChatTurn } from '#shared/api/types.ts';
import { describeCitation } from '#shared/citation.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function citationsOf(turn: ChatTurn) {
  return turn.memories.map((m, i) => ({
    n: i + 1,
    id: m.id,
    label: m.label,
    where: describeCitation(m.citation) || m.label,
    citation: m.citation,
  }));
}

/** An answer as a person reads it: the text, then its numbered citations or the passages. */
function printAnswer(turn: ChatTurn, streamed: boolean): void {
  if (streamed) print();
  else print(turn.text);
  const citations = citationsOf(turn);
  if (turn.modelOff) {
    for (const [i, p] of turn.passages.entries()) {
      print(`\n[${i + 1}] ${describeCitation(p.citation) || p.label}`);
      print(`    ${p.text.replace(/\s+/g, ' ').slice(0, 400)}`);
    }
  } else if (citations.length) {
    print('');
    for (const c of citations) print(`[${c.n}] ${c.where}  (${c.id})`);
  }
  if (!citations.length && turn.reason) print(`(no memories used: ${turn.reason})`);
}

async function ask(engine: Engine, message: string, thread: string | undefined, json: boolean) {
  let streamed = false;
  const ctx = {
    ...memberContext(engine, 'cli'),
    notify: (event: string, payload: unknown) => {
      if (event !== 'chat.delta' || json) return;
      streamed = true;
      process.stdout.write((payload as { text: string }).text);
    },
  };
  const result = await run(ctx, ChatSend, { threadId: thread, message });
  const a = result.answer;
  if (!json) return printAnswer(a, streamed);
  printJson({
    answer: a.text,
    modelOff: a.modelOff,
    modelError: a.modelError,
    citations: citationsOf(a),
    reason: a.reason,
    passages: a.passages.map((p) => ({ itemId: p.itemId, label: p.label, text: p.text })),
    threadId: result.thread.id,
  });
}

export function registerAsk(program: Command): void {
  program
    .command('ask')
    .description(ChatSend.summary)
    .argument('<question...>', 'the question')
    .option('--thread <id>', 'continue a chat thread')
    .option('--json', 'print JSON: {answer, modelOff, modelError, citations, …}')
    .action((words: string[], opts: { thread?: string; json?: boolean }) =>
      withEngine(program, (engine) => ask(engine, words.join(' '), opts.thread, Boolean(opts.json)), {
        surface: 'chat',
      }),
    );
}

export function registerChat(program: Command): void {
  const chat = program.command('chat').description('Your chat threads (ask with `brain ask`)');
  chat
    .command('list')
    .description(ChatThreads.summary)
    .option('--json', 'print JSON: {threads}')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ChatThreads, {});
        if (opts.json || chat.opts().json) return printJson(out);
        if (out.threads.length === 0) return print('No chat threads yet: ask with `brain ask "<question>"`.');
        for (const t of out.threads) print(`${t.id}  ${t.updatedAt}  ${t.turns} turns  ${t.title}`);
      }),
    );
  chat
    .command('show')
    .description(ChatThreadGet.summary)
    .argument('<id>', 'the thread id')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const thread = await run(memberContext(engine, 'cli'), ChatThreadGet, { id });
        if (opts.json) return printJson(thread);
        print(`${thread.title}  (${thread.id})`);
        for (const m of thread.messages) {
          print(`\n${m.role === 'user' ? 'you' : 'brain'} · ${m.at}`);
          if (m.role === 'user') print(m.text);
          else printAnswer(m, false);
        }
      }),
    );
  chat
    .command('delete')
    .description(ChatDelete.summary)
    .argument('<id>', 'the thread id')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ChatDelete, { id });
        if (opts.json) return printJson(out);
        print(out.deleted ? `Deleted thread ${id}.` : `No thread ${id}: nothing deleted.`);
      }),
    );
  chat
    .command('remember')
    .description(ChatRemember.summary)
    .argument('<id>', 'the thread id')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ChatRemember, { threadId: id });
        if (opts.json) return printJson(out);
        print(`${out.created ? 'Remembered' : 'Already remembered'} as run ${out.run}.`);
        print(
          out.modelOn
            ? 'Its write-back pass runs in the app or `brain serve`, or now with `brain runs --process`.'
            : 'No chat model is configured: its write-back pass waits for one (`brain config`).',
        );
      }),
    );
}
