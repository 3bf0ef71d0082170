import { ChevronRight, FileText, Folder, FolderOpen, Hash, Tag } from 'lucide-react';
import { useId } from 'react';
import { StatusBadge } from './StatusBadge.tsx';
import type { TreeNode } from './tree-format.ts';

export type TreeRowProps = {
  node: TreeNode;
  depth: number;
  posinset: number;
  setsize: number;
  expanded: boolean;
  selected: boolean;
  isCursor: boolean;
  rowRef: (el: HTMLElement | null) => void;
  onToggle: () => void;
  onOpen: () => void;
  onFocus: () => void;
};

function KindIcon({ kind, open }: { kind: TreeNode['kind']; open: boolean }) {
  const props = {
    size: 14,
    'aria-hidden': true,
    className: `tree-row__icon tree-row__icon--${kind}`,
  } as const;
  if (kind === 'folder' || kind === 'root') return open ? <FolderOpen {...props} /> : <Folder {...props} />;
  if (kind === 'section') return <Hash {...props} />;
  if (kind === 'card') return <Tag {...props} />;
  return <FileText {...props} />;
}

/** One node: its expand control, title, status badge and summary (two lines at most). */
export function TreeRow(props: TreeRowProps) {
  const { node, depth, expanded, selected } = props;
  const titleId = useId();
  const summaryId = useId();
  const hasChildren = node.children > 0;
  return (
    <div
      ref={props.rowRef}
      role="treeitem"
      aria-level={depth}
      aria-posinset={props.posinset}
      aria-setsize={props.setsize}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={selected}
      aria-labelledby={titleId}
      aria-describedby={node.summary ? summaryId : undefined}
      tabIndex={props.isCursor ? 0 : -1}
      className={selected ? 'tree-row is-selected' : 'tree-row'}
      style={{ paddingLeft: `${6 + (depth - 1) * 16}px` }}
      onFocus={(e) => e.target === e.currentTarget && props.onFocus()}
      onClick={props.onOpen}
      onKeyDown={() => {}}
    >
      <span
        className={hasChildren ? 'tree-row__toggle' : 'tree-row__toggle is-leaf'}
        aria-hidden="true"
        data-toggle={hasChildren ? node.id : undefined}
        onClick={(e) => {
          if (!hasChildren) return;
          e.stopPropagation();
          props.onToggle();
        }}
      >
        {hasChildren ? <ChevronRight size={13} className={expanded ? 'is-open' : undefined} /> : null}
      </span>
      <KindIcon kind={node.kind} open={expanded} />
      <span className="tree-row__body">
        <span className="tree-row__line">
          <span id={titleId} className="tree-row__title ellipsis">
            {node.title}
          </span>
          <StatusBadge status={node.status} supersededBy={node.supersededBy} />
        </span>
        {node.summary ? (
          <span id={summaryId} className="tree-row__summary">
            {node.summary}
          </span>
        ) : null}
      </span>
    </div>
  );
}
