import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { formatRelative } from '../../lib/format.ts';
import { formatUsd } from './agent-format.ts';
import { BrainSections } from './BrainSections.tsx';
import { EffectivenessPanel } from './EffectivenessPanel.tsx';
import { ObservationStream } from './ObservationStream.tsx';
import { SynthesizeButton } from './SynthesizeButton.tsx';
import { TierSelect } from './TierSelect.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';

/**
 * One agent's page (docs/AGENTS.md [G11]): its active brain by section, its versions with diff and
 * rollback, effectiveness and cost, and the observation stream. A cited id in the brain filters the
 * stream to that observation.
 */
export function AgentPage({ name, onBack }: { name: string; onBack: () => void }) {
  const show = useCall('agents.show', { agent: name });
  const versions = useCall('agents.versions', { agent: name });
  const [cited, setCited] = useState<string | null>(null);
  const [streamSeq, setStreamSeq] = useState(0);
  const refresh = () => {
    show.refresh();
    versions.refresh();
    setStreamSeq((n) => n + 1);
  };
  const agent = show.data?.agent;

  return (
    <section className="screen" aria-labelledby="agent-title">
      <header className="screen__header agent-page__header">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={onBack}
          aria-label="Back to all agents"
        >
          <ArrowLeft size={14} aria-hidden="true" /> Agents
        </button>
        <h1 id="agent-title" className="screen__title">
          {name}
        </h1>
        {agent ? (
          <span className="screen__meta">
            {agent.activeVersion === null ? 'no brain yet' : `active v${agent.activeVersion}`} ·{' '}
            {agent.waiting} / {agent.threshold} waiting · last synthesis{' '}
            {agent.lastSynthesizedAt ? formatRelative(agent.lastSynthesizedAt) : 'never'} · this week{' '}
            {formatUsd(agent.costThisWeekUsd)} · {agent.scope}
          </span>
        ) : null}
        <span className="toolbar__spacer" />
        {agent ? <TierSelect agent={name} tier={agent.tier} onChanged={refresh} /> : null}
        <SynthesizeButton agent={name} onDone={refresh} />
      </header>
      <div className="screen__body screen__body--scroll agent-page">
        {show.error ? (
          <ErrorNotice error={show.error} title={`Could not open ${name}`} onRetry={show.refresh} />
        ) : null}
        {!show.data && !show.error ? <Skeleton lines={6} label="Loading the agent" /> : null}
        {show.data ? (
          <BrainSections
            brain={show.data.brain}
            version={show.data.version}
            cited={cited}
            onCite={setCited}
          />
        ) : null}
        <VersionsPanel agent={name} state={versions} onMoved={refresh} />
        <EffectivenessPanel agent={name} versions={versions.data?.versions ?? []} />
        <ObservationStream key={streamSeq} agent={name} cited={cited} onClearCited={() => setCited(null)} />
      </div>
    </section>
  );
}
