import { useEffect, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { formatPercent, formatUsd } from './agent-format.ts';
import { type EffectivenessState, loadEffectiveness, type VersionStats } from './agents-api.ts';
import { type Bar, BarChart } from './BarChart.tsx';

type Version = Outputs['agents.versions']['versions'][number];

function rateBar(v: VersionStats): Bar {
  // The score folds the thumbs in; the rate (and the trend) stays the runs' alone ([G8]).
  const thumbs =
    v.thumbsUp || v.thumbsDown
      ? ` · thumbs ${v.thumbsUp} up, ${v.thumbsDown} down · score ${formatPercent(v.score)}`
      : '';
  return {
    key: String(v.number),
    label: `v${v.number}`,
    value: v.rate,
    text: `${formatPercent(v.rate)} (${v.succeeded}/${v.ended})${thumbs}`,
    title: `${v.runs} runs, ${v.ended} ended, ${v.succeeded} succeeded`,
  };
}

const costBar = (key: string, label: string, usd: number | null): Bar => ({
  key,
  label,
  value: usd,
  text: formatUsd(usd),
});

function Comparison({
  c,
}: {
  c: NonNullable<Extract<EffectivenessState, { state: 'ready' }>['data']['comparison']>;
}) {
  const side = (n: number, s: typeof c.aStats) => (
    <div className="compare__side">
      <strong>v{n}</strong> {formatPercent(s.rate)} ({s.succeeded}/{s.runs} runs)
    </div>
  );
  return (
    <section className="compare" aria-label="Side-by-side comparison">
      <span className="muted">
        Comparing in production, {c.split} % of runs on v{c.a}, the rest on v{c.b}
        {c.since ? `, runs since ${c.since.slice(0, 16).replace('T', ' ')} UTC` : ''}:
      </span>
      {side(c.a, c.aStats)}
      {side(c.b, c.bStats)}
    </section>
  );
}

/**
 * Success rate per version with the trend label, and cost per version and per week
 * (docs/AGENTS.md [G11]). Cost per version comes from the versions themselves; the rest needs
 * `agents.effectiveness`, and says so plainly on a host that has not got it.
 */
export function EffectivenessPanel({ agent, versions }: { agent: string; versions: readonly Version[] }) {
  const [eff, setEff] = useState<EffectivenessState | null>(null);
  const [seq, setSeq] = useState(0);
  // A new version (a synthesis) or a rollback elsewhere on the page reloads the numbers.
  const count = versions.length;
  useEffect(() => {
    let live = true;
    void seq;
    void count;
    void loadEffectiveness(agent).then((r) => {
      if (live) setEff(r);
    });
    return () => {
      live = false;
    };
  }, [agent, seq, count]);

  const perVersion = [...versions]
    .sort((a, b) => a.number - b.number)
    .map((v) => costBar(String(v.number), `v${v.number}`, v.costUsd));

  return (
    <section className="agent-panel" aria-labelledby="effect-title">
      <h2 id="effect-title" className="agent-panel__title">
        Effectiveness and cost
        {eff?.state === 'ready' ? (
          <span className={`trend trend--${eff.data.trend.replace(' ', '-')}`}>{eff.data.trend}</span>
        ) : null}
      </h2>
      <div className="agent-charts">
        <div>
          <h3 className="brain__section-title">Success rate per version</h3>
          {!eff ? <Skeleton lines={2} label="Loading effectiveness" /> : null}
          {eff?.state === 'error' ? (
            <ErrorNotice
              error={eff.error}
              title="Could not load effectiveness"
              onRetry={() => setSeq((n) => n + 1)}
            />
          ) : null}
          {eff?.state === 'ready' ? (
            eff.data.versions.length ? (
              <BarChart
                label="Success rate per version"
                max={1}
                bars={[...eff.data.versions].sort((a, b) => a.number - b.number).map(rateBar)}
              />
            ) : (
              <p className="muted">No runs have read a version yet.</p>
            )
          ) : null}
          {eff?.state === 'ready' && eff.data.comparison ? <Comparison c={eff.data.comparison} /> : null}
        </div>
        <div>
          <h3 className="brain__section-title">Cost per version</h3>
          {perVersion.length ? (
            <BarChart label="Cost per version" bars={perVersion} />
          ) : (
            <p className="muted">No versions yet.</p>
          )}
        </div>
        <div>
          <h3 className="brain__section-title">Cost per week</h3>
          {eff?.state === 'ready' ? (
            eff.data.weeks.length ? (
              <BarChart
                label="Cost per week"
                bars={eff.data.weeks.map((w) => costBar(w.week, w.week, w.costUsd))}
              />
            ) : (
              <p className="muted">No synthesis cost recorded yet.</p>
            )
          ) : null}
        </div>
      </div>
    </section>
  );
}
