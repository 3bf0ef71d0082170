import { Unlink } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { plural } from '../../lib/format.ts';
import { shortCommit } from './tree-format.ts';

export type BrokenLinksProps = { tree: string; onSelect: (id: string) => void };

/** Links of the indexed documents to Markdown files the repository does not have (trees.broken). */
export function BrokenLinks({ tree, onSelect }: BrokenLinksProps) {
  const broken = useCall('trees.broken', { tree }, { refetchOn: ['trees.changed'] });
  const data = broken.data;
  if (broken.error && !data)
    return (
      <ErrorNotice error={broken.error} title="Could not load the broken links" onRetry={broken.refresh} />
    );
  if (!data) return <Skeleton lines={5} label="Loading broken links" />;
  if (data.links.length === 0)
    return (
      <div className="empty empty--small">
        <Unlink size={22} aria-hidden="true" />
        <p className="empty__text">No broken links.</p>
      </div>
    );
  return (
    <div className="broken">
      <p className="trees__note">
        {plural(data.links.length, 'link')} to Markdown files that are not in {data.branch ?? 'the folder'} at{' '}
        <span className="mono">{shortCommit(data.commit)}</span>
        {data.truncated ? ' (the first 5,000)' : ''}.
      </p>
      <table className="broken__table">
        <caption className="visually-hidden">Broken links</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Target</th>
          </tr>
        </thead>
        <tbody>
          {data.links.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a page may hold the same broken link twice
            <tr key={`${l.from}:${l.target}:${i}`}>
              <td>
                <button type="button" className="link-button mono" onClick={() => onSelect(l.from)}>
                  {l.from}
                </button>
              </td>
              <td className="mono">{l.target}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
