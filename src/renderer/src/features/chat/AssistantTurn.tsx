import { AlertTriangle, BrainCircuit, Info } from 'lucide-react';
import type { ChatTurn, InjectedMemory } from '#shared/api/types.ts';
import { FeedbackBar } from '../agents/FeedbackBar.tsx';
import { CitedText } from './CitedText.tsx';
import { type OpenCitation, openCited, sourceOf, whereOf } from './cited.ts';
import { FactTag } from './FactTag.tsx';
import { PassageCard } from './PassageCard.tsx';
import './turns.css';

export type AssistantTurnProps = {
  turn: ChatTurn;
  onOpen: OpenCitation;
  /** The question this answers: sent with a person's feedback on it (docs/AGENTS.md [G2]). */
  question?: string | null;
};

/**
 * An answer: the memories it used as numbered chips (a fact of an entity marked as one, docs/FACTS.md
 * [K15]), the cited passages, or why it used none (said once: the engine's "holds nothing on this"
 * says the same). Without the chat model (off, or failed) the passages are the answer, under the
 * engine's words for why; a failed model is marked as a warning, not as a choice.
 */
export function AssistantTurn({ turn, onOpen, question = null }: AssistantTurnProps) {
  const noMemories = turn.memories.length === 0;
  return (
    <article className="turn turn--assistant" aria-label="Answer">
      <div className="turn__avatar" aria-hidden="true">
        <BrainCircuit size={15} />
      </div>
      <div className="turn__content">
        {noMemories ? (
          <p className="turn__reason" role="note">
            <Info size={14} aria-hidden="true" />
            <span>No memories used, because {turn.reason ?? 'nothing in the workspace matched'}.</span>
          </p>
        ) : (
          <ul className="memory-chips" aria-label="Memories used">
            {turn.memories.map((m, i) => {
              const where = whereOf(m);
              return (
                <li key={m.id}>
                  <button
                    type="button"
                    className="memory-chip"
                    onClick={() => openCited(m, m.id, onOpen)}
                    title={
                      m.fact
                        ? `${m.fact.entity}: ${m.fact.statement} · ${sourceOf(m)}`
                        : m.score === null
                          ? `${where} · anchored`
                          : `${where} · score ${m.score.toFixed(3)}`
                    }
                    aria-label={`Memory ${i + 1}: ${where}`}
                  >
                    <span className="memory-chip__n">{i + 1}</span>
                    {m.fact ? <FactTag entity={m.fact.entity} /> : <span className="ellipsis">{where}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <MorePassages memories={turn.memories} onOpen={onOpen} />
        {noMemories ? null : turn.modelOff ? (
          turn.passages.length > 0 ? (
            <div className="passages">
              {/* The engine's words: the model is off, or it failed and why (src/engine/chat/chat.ts). */}
              {turn.modelError ? (
                <p className="model-off-label model-off-label--failed">
                  <AlertTriangle size={14} aria-hidden="true" />
                  <span>{turn.text}</span>
                </p>
              ) : (
                <p className="model-off-label">{turn.text}</p>
              )}
              {turn.passages.map((p, i) => (
                <PassageCard key={p.fact?.id ?? p.itemId} passage={p} n={i + 1} onOpen={onOpen} />
              ))}
            </div>
          ) : turn.text ? (
            <p className="turn__text">{turn.text}</p>
          ) : null
        ) : (
          <CitedText text={turn.text} memories={turn.memories} onOpen={onOpen} />
        )}
        <FeedbackBar target={{ kind: 'answer', answerId: turn.id, question }} />
      </div>
    </article>
  );
}

/**
 * A memory stands for its whole source (docs/RETRIEVAL.md [R6]): the other passages of that
 * source that matched are one click away, each opening its own range.
 */
function MorePassages({ memories, onOpen }: { memories: InjectedMemory[]; onOpen: OpenCitation }) {
  const folded = memories.map((m, i) => ({ m, n: i + 1 })).filter(({ m }) => (m.more ?? 0) > 0);
  if (folded.length === 0) return null;
  return (
    <div className="more-passages">
      {folded.map(({ m, n }) => (
        <details key={m.id} className="more-passages__group">
          <summary>
            <span className="memory-chip__n">{n}</span>
            {m.more} more passage{m.more === 1 ? '' : 's'}
            {(m.also ?? []).every((a) => a.citation?.fileId === m.citation?.fileId)
              ? ` from ${m.citation?.fileLabel || m.label}`
              : ', the same text in other files too'}
          </summary>
          <ul aria-label={`More passages from memory ${n}`}>
            {(m.also ?? []).map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className="more-passages__item"
                  onClick={() => openCited(a, a.id, onOpen)}
                >
                  {whereOf(a)}
                </button>
              </li>
            ))}
            {(m.more ?? 0) > (m.also?.length ?? 0) ? (
              <li className="more-passages__rest">and {(m.more ?? 0) - (m.also?.length ?? 0)} more</li>
            ) : null}
          </ul>
        </details>
      ))}
    </div>
  );
}
