/**
 * The Agents screen's calls of effectiveness per version and of a person's feedback
 * (docs/AGENTS.md [G8], [G10], [G11]), through the typed door (lib/api.ts).
 */
import type { Outputs } from '#shared/api/contract.ts';
import { AppError } from '#shared/errors.ts';
import { callResult } from '../../lib/api.ts';

/** `agents.effectiveness` {agent}, docs/AGENTS.md [G8]. */
export type Effectiveness = Outputs['agents.effectiveness'];
export type VersionStats = Effectiveness['versions'][number];

export type EffectivenessState =
  | { state: 'ready'; data: Effectiveness }
  | { state: 'error'; error: AppError };

export async function loadEffectiveness(agent: string): Promise<EffectivenessState> {
  const result = await callResult('agents.effectiveness', { agent });
  if (result.ok) return { state: 'ready', data: result.data };
  return {
    state: 'error',
    error: new AppError(result.error.code, result.error.message, result.error.details),
  };
}

export type FeedbackType = 'human_thumbs_up' | 'human_thumbs_down' | 'human_feedback';
export type FeedbackInput = {
  type: FeedbackType;
  text?: string;
  payload: Record<string, unknown>;
  /** A run's id, for feedback on an agent's run ([G10]). */
  run?: string;
};
type Observation = Outputs['observations.add']['observation'];

/** Records a person's feedback as an observation of a `human_*` type ([G2]); throws an AppError. */
export async function sendFeedback(input: FeedbackInput): Promise<Observation> {
  const { run, type, text, payload } = input;
  const result = await callResult('observations.add', {
    type,
    payload,
    ...(text ? { text } : {}),
    ...(run ? { run } : {}),
  });
  if (!result.ok) throw new AppError(result.error.code, result.error.message, result.error.details);
  return result.data.observation;
}
