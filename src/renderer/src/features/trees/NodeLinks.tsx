import { ArrowDownLeft, ArrowUpRight } from 'lucide-react';
import { plural } from '../../lib/format.ts';
import type { TreeLink, TreeRead } from './tree-format.ts';

export type NodeLinksProps = { read: TreeRead; onSelect: (id: string) => void };

function LinkList({
  links,
  label,
  onSelect,
}: {
  links: TreeLink[];
  label: string;
  onSelect: (id: string) => void;
}) {
  return (
    <ul className="node-list" aria-label={label}>
      {links.map((l) => (
        <li key={`${l.node}:${l.line}:${l.kind}`}>
          <button type="button" className="node-list__item" onClick={() => onSelect(l.node)}>
            <span className="node-list__title ellipsis">{l.title}</span>
            <span className="node-list__meta mono ellipsis">{l.node}</span>
            <span className="node-list__where">
              {l.kind === 'mention' ? 'mention' : 'link'} · line {l.line}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The node's children (with summaries) and its links each way; each opens that node. */
export function NodeLinks({ read, onSelect }: NodeLinksProps) {
  const { children, outgoing, incoming } = read;
  return (
    <>
      {children.length ? (
        <section className="node-pane__section" aria-labelledby="node-children">
          <h3 id="node-children" className="node-pane__heading">
            Children <span className="count-badge">{read.node.children}</span>
          </h3>
          <ul className="node-list" aria-label="Children">
            {children.map((c) => (
              <li key={c.id}>
                <button type="button" className="node-list__item" onClick={() => onSelect(c.id)}>
                  <span className="node-list__title ellipsis">{c.title}</span>
                  {c.summary ? <span className="node-list__summary">{c.summary}</span> : null}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {outgoing.length ? (
        <section className="node-pane__section" aria-labelledby="node-outgoing">
          <h3 id="node-outgoing" className="node-pane__heading">
            <ArrowUpRight size={13} aria-hidden="true" /> Links to
          </h3>
          <LinkList links={outgoing} label="Links to" onSelect={onSelect} />
          {read.outgoingTotal > outgoing.length ? (
            <p className="trees__note">and {plural(read.outgoingTotal - outgoing.length, 'more link')}</p>
          ) : null}
        </section>
      ) : null}
      {incoming.length ? (
        <section className="node-pane__section" aria-labelledby="node-incoming">
          <h3 id="node-incoming" className="node-pane__heading">
            <ArrowDownLeft size={13} aria-hidden="true" /> Linked from
          </h3>
          <LinkList links={incoming} label="Linked from" onSelect={onSelect} />
        </section>
      ) : null}
    </>
  );
}
