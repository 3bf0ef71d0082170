/** `brain ask "<question>"`: one chat turn through the same path as the app's chat (injection, model or passages). */
import type { Command } from 'commander';
import { sendMessage } from '#engine/host/chat.ts';
import { modelAnswerer } from '#engine/host/chat-model.ts';
import { resolveModel } from '#engine/llm/config.ts';
import { inject } from '#engine/search/injection.ts';
import { describeCitation } from '#shared/citation.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerAsk(program: Command): void {
  program
    .command('ask')
    .description('Ask the brain: an answer grounded in the memories it finds, with citations')
    .argument('<question...>', 'the question')
    .option('--thread <id>', 'continue a chat thread')
    .option('--json', 'print JSON: {answer, modelOff, citations, …}')
    .action((words: string[], opts: { thread?: string; json?: boolean }) =>
      withEngine(
        program,
        async (engine) => {
          const message = words.join(' ').trim();
          if (!message) throw new AppError('validation-failed', 'Give a question: brain ask "<question>"');
          const access = await resolveModel(engine.db, engine.home);
          let streamed = false;
          const model = access
            ? {
                answer: modelAnswerer(access),
                onDelta: (d: { text: string }) => {
                  if (opts.json) return;
                  streamed = true;
                  process.stdout.write(d.text);
                },
              }
            : undefined;
          const result = await sendMessage(
            engine.db,
            engine.user,
            { threadId: opts.thread, message },
            async (m, anchors) => {
              const r = await inject(engine, { message: m, anchors: [...anchors], surface: 'chat' });
              return { items: r.items, reason: r.reason };
            },
            model,
          );
          const a = result.answer;
          const citations = a.memories.map((m, i) => ({
            n: i + 1,
            id: m.id,
            label: m.label,
            where: describeCitation(m.citation) || m.label,
            citation: m.citation,
          }));
          if (opts.json) {
            return printJson({
              answer: a.text,
              modelOff: a.modelOff,
              citations,
              reason: a.reason,
              passages: a.passages.map((p) => ({ itemId: p.itemId, label: p.label, text: p.text })),
              threadId: result.thread.id,
            });
          }
          if (streamed) print();
          else print(a.text);
          if (a.modelOff) {
            for (const [i, p] of a.passages.entries()) {
              print(`\n[${i + 1}] ${describeCitation(p.citation) || p.label}`);
              print(`    ${p.text.replace(/\s+/g, ' ').slice(0, 400)}`);
            }
          } else if (citations.length) {
            print('');
            for (const c of citations) print(`[${c.n}] ${c.where}  (${c.id})`);
          }
          if (!citations.length && a.reason) print(`(no memories used: ${a.reason})`);
        },
        { surface: 'chat' },
      ),
    );
}
