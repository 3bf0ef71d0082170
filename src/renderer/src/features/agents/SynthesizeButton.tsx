import { Loader2, Sparkles } from 'lucide-react';
import { useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { useApp } from '../../app/app-context.ts';
import { useAction } from '../../hooks/useAction.ts';
import { call } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';

type Outcome = Outputs['agents.synthesize'];

const synthesize = (agent: string, force: boolean) =>
  call('agents.synthesize', force ? { agent, force: true } : { agent });

function describe(o: Outcome): string {
  if (o.state === 'synthesized') {
    const v = o.version ? `version ${o.version.number}` : 'a new version';
    const dropped = o.dropped
      ? `; ${plural(o.dropped, 'entry', 'entries')} dropped for citing unknown ids`
      : '';
    return `Synthesized ${v}${dropped}`;
  }
  return `${o.state === 'skipped' ? 'Skipped' : 'Failed'}: ${o.reason ?? 'no reason given'}`;
}

/**
 * "Synthesize now" (agents.synthesize): progress while the model works, the outcome after, and, when
 * it was skipped as not due, the reason and a way to synthesize anyway (force).
 */
export function SynthesizeButton({ agent, onDone }: { agent: string; onDone: () => void }) {
  const app = useApp();
  const action = useAction(synthesize);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [forced, setForced] = useState(false);
  const run = async (force: boolean) => {
    setOutcome(null);
    setForced(force);
    const o = await action.run(agent, force);
    if (!o) return;
    setOutcome(o);
    // A skip is said next to the button only; a new version or a failure also gets a notice.
    if (o.state !== 'skipped') app.notify(describe(o), o.state === 'synthesized' ? 'success' : 'error');
    if (o.state === 'synthesized') onDone();
  };
  return (
    <div className="synthesize">
      <button
        type="button"
        className="button button--primary"
        onClick={() => void run(false)}
        disabled={action.busy}
      >
        {action.busy ? (
          <Loader2 size={14} className="spin" aria-hidden="true" />
        ) : (
          <Sparkles size={14} aria-hidden="true" />
        )}
        {action.busy ? 'Synthesizing…' : 'Synthesize now'}
      </button>
      <span role="status" aria-label="Synthesis" className="synthesize__outcome">
        {action.busy ? 'The model is writing the next brain…' : null}
        {!action.busy && outcome ? describe(outcome) : null}
        {!action.busy && action.error ? `Could not synthesize: ${action.error.message}` : null}
      </span>
      {!action.busy && outcome?.state === 'skipped' && !forced ? (
        <button type="button" className="button button--small" onClick={() => void run(true)}>
          Synthesize anyway
        </button>
      ) : null}
    </div>
  );
}
