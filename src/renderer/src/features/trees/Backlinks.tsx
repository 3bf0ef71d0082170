import { useEffect, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';

type Backlink = Outputs['trees.backlinks']['items'][number];
const PAGE = 20;

export type BacklinksProps = { tree: string; node: string; onSelect: (id: string) => void };

/** The pages that link here (trees.backlinks), 20 at a time; only for pages, headings and cards. */
export function Backlinks({ tree, node, onSelect }: BacklinksProps) {
  const first = useCall('trees.backlinks', { tree, node, limit: PAGE }, { refetchOn: ['trees.changed'] });
  const [extra, setExtra] = useState<{ items: Backlink[]; nextOffset: number | null } | null>(null);
  const data = first.data;
  useEffect(() => {
    void data;
    setExtra(null);
  }, [data]);

  const items = [...(data?.items ?? []), ...(extra?.items ?? [])];
  const nextOffset = extra ? extra.nextOffset : (data?.nextOffset ?? null);
  const more = useAction(async () => {
    if (nextOffset === null) return;
    const page = await call('trees.backlinks', { tree, node, offset: nextOffset, limit: PAGE });
    setExtra((prev) => ({ items: [...(prev?.items ?? []), ...page.items], nextOffset: page.nextOffset }));
  });

  return (
    <section className="node-pane__section" aria-labelledby="node-backlinks">
      <h3 id="node-backlinks" className="node-pane__heading">
        Backlinks {data ? <span className="count-badge">{data.total}</span> : null}
      </h3>
      {first.error ? (
        <ErrorNotice error={first.error} title="Could not load the backlinks" onRetry={first.refresh} />
      ) : !data ? (
        <Skeleton lines={2} label="Loading backlinks" />
      ) : items.length === 0 ? (
        <p className="trees__note">No other page links here.</p>
      ) : (
        <ul className="node-list" aria-label="Backlinks">
          {items.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one item a link; a page may link the same way twice
            <li key={`${b.node}:${b.target}:${i}`}>
              <button type="button" className="node-list__item" onClick={() => onSelect(b.node)}>
                <span className="node-list__title mono ellipsis">{b.node}</span>
                <span className="node-list__where">
                  {b.linkKind}
                  {b.target !== node ? ` → ${b.target}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {more.error ? <ErrorNotice error={more.error} title="Could not load more backlinks" /> : null}
      {nextOffset !== null ? (
        <button
          type="button"
          className="button button--small"
          onClick={() => void more.run()}
          disabled={more.busy}
        >
          Show more backlinks
        </button>
      ) : null}
    </section>
  );
}
