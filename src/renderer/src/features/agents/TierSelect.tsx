import { useApp } from '../../app/app-context.ts';
import { useAction } from '../../hooks/useAction.ts';
import { call } from '../../lib/api.ts';
import { TIER_LABEL, TIERS, type Tier } from './agent-format.ts';

const setTier = (agent: string, tier: Tier) => call('agents.set', { agent, tier });

/** The agent's tier, which sets how many new observations make a synthesis due (agents.set). */
export function TierSelect({ agent, tier, onChanged }: { agent: string; tier: Tier; onChanged: () => void }) {
  const app = useApp();
  const action = useAction(setTier);
  const change = async (next: Tier) => {
    const done = await action.run(agent, next);
    if (done) {
      app.notify(
        `${agent} is now tier ${next}: synthesis every ${done.agent.threshold} observations`,
        'success',
      );
      onChanged();
    }
  };
  return (
    <label className="agent-page__tier">
      <span>Tier</span>
      <select
        className="input"
        value={tier}
        disabled={action.busy}
        onChange={(e) => {
          const next = TIERS.find((t) => t === e.target.value);
          if (next) void change(next);
        }}
        aria-invalid={action.error ? true : undefined}
        title={action.error ? `Could not set the tier: ${action.error.message}` : undefined}
      >
        {TIERS.map((t) => (
          <option key={t} value={t}>
            {TIER_LABEL[t]}
          </option>
        ))}
      </select>
      {action.error ? (
        <span role="alert" className="agent-page__inline-error">
          Could not set the tier: {action.error.message}
        </span>
      ) : null}
    </label>
  );
}
