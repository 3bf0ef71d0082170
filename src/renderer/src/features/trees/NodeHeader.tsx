import { ChevronRight } from 'lucide-react';
import { StatusBadge } from './StatusBadge.tsx';
import { describeChange, shortCommit, type TreeRead } from './tree-format.ts';

export type NodeHeaderProps = {
  read: TreeRead;
  /** What the root is called (the engine titles it "/"): the repository's name. */
  rootTitle: string;
  onSelect: (id: string) => void;
  /** Finds what a reference names (a replacement such as ADR-005) and opens it. */
  onFind: (query: string) => void;
};

function where(read: TreeRead): string | null {
  const { path, lineStart, lineEnd } = read.citation;
  if (!path || lineStart === 0) return null;
  return lineStart === lineEnd ? `${path} · line ${lineStart}` : `${path} · lines ${lineStart}–${lineEnd}`;
}

/** Where the node is (a clickable breadcrumb), what it is, when it last changed and what is cited. */
export function NodeHeader({ read, rootTitle, onSelect, onFind }: NodeHeaderProps) {
  const { node, citation } = read;
  const change = describeChange(node.changed);
  const cited = where(read);
  const titleOf = (id: string, title: string) => (id === '/' ? rootTitle : title);
  return (
    <header className="node-pane__header">
      <nav aria-label="Breadcrumb">
        <ol className="crumbs">
          {read.breadcrumb.map((c) => (
            <li key={c.id} className="crumbs__item">
              <button type="button" className="crumbs__link" onClick={() => onSelect(c.id)}>
                {titleOf(c.id, c.title)}
              </button>
              <ChevronRight size={12} aria-hidden="true" className="crumbs__sep" />
            </li>
          ))}
          <li className="crumbs__item" aria-current="location">
            <span className="crumbs__current ellipsis">{titleOf(node.id, node.title)}</span>
          </li>
        </ol>
      </nav>
      <div className="node-pane__title-row">
        <h2 className="node-pane__title">{titleOf(node.id, node.title)}</h2>
        <span className="kind-tag">{node.kind}</span>
        <StatusBadge status={node.status} supersededBy={node.supersededBy} />
      </div>
      {node.supersededBy ? (
        <p className="node-pane__superseded">
          Replaced by{' '}
          <button type="button" className="link-button" onClick={() => onFind(node.supersededBy ?? '')}>
            {node.supersededBy}
          </button>
        </p>
      ) : null}
      <p className="node-pane__facts">
        {change ? (
          <span title={node.changed ? `Commit ${node.changed.commit}` : undefined}>{change}</span>
        ) : null}
        {cited ? (
          <span className="mono" title={`Commit ${citation.commit}`}>
            {cited} @ {shortCommit(citation.commit)}
          </span>
        ) : null}
      </p>
    </header>
  );
}
