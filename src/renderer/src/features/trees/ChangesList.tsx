import { GitCompare } from 'lucide-react';
import { plural } from '../../lib/format.ts';
import { type ChangedDocument, shortCommit, type TreeChanges } from './tree-format.ts';

export type ChangesListProps = { changes: TreeChanges; onSelect: (id: string) => void };

const STATUS_LABELS: Record<ChangedDocument['status'], string> = {
  added: 'Added',
  modified: 'Modified',
  deleted: 'Deleted',
  renamed: 'Renamed',
};

function Lines({ doc }: { doc: ChangedDocument }) {
  if (doc.linesAdded === null || doc.linesRemoved === null)
    return <span className="muted">lines unknown</span>;
  return (
    <span title={`${plural(doc.linesAdded, 'line')} added, ${doc.linesRemoved.toLocaleString()} removed`}>
      <span className="changes__added num">+{doc.linesAdded.toLocaleString()}</span>{' '}
      <span className="changes__removed num">−{doc.linesRemoved.toLocaleString()}</span>
    </span>
  );
}

/** A trees.changes answer: the documents with their status and lines, then the changed sections and cards. */
export function ChangesList({ changes, onSelect }: ChangesListProps) {
  const { documents, nodes } = changes;
  const between = (
    <>
      <span className="mono">{shortCommit(changes.since)}</span> and{' '}
      <span className="mono">{shortCommit(changes.commit)}</span>
    </>
  );
  if (documents.length === 0)
    return (
      <div className="empty empty--small">
        <GitCompare size={22} aria-hidden="true" />
        <p className="empty__text">Nothing changed between {between}.</p>
      </div>
    );
  return (
    <>
      <p className="trees__note">
        {plural(documents.length, 'document')} changed between {between}.
        {changes.truncated ? ' Showing the first 100 documents.' : ''}
      </p>
      <table className="changes__table">
        <caption className="visually-hidden">Changed documents</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Document</th>
            <th scope="col">Lines</th>
          </tr>
        </thead>
        <tbody>
          {documents.map((d) => (
            <tr key={`${d.status}:${d.path}`}>
              <td>
                <span className={`chip changes__status changes__status--${d.status}`}>
                  {STATUS_LABELS[d.status]}
                </span>
              </td>
              <td>
                {d.status === 'deleted' ? (
                  <span className="mono">{d.path}</span>
                ) : (
                  <button type="button" className="link-button mono" onClick={() => onSelect(d.path)}>
                    {d.path}
                  </button>
                )}
                {d.oldPath ? <span className="muted mono"> from {d.oldPath}</span> : null}
              </td>
              <td className="changes__lines">
                <Lines doc={d} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {nodes.length ? (
        <section className="node-pane__section changes__nodes" aria-labelledby="changes-nodes">
          <h3 id="changes-nodes" className="node-pane__heading">
            Changed sections and cards <span className="count-badge">{nodes.length}</span>
          </h3>
          <ul className="node-list" aria-label="Changed sections and cards">
            {nodes.map((n) => (
              <li key={n.node}>
                <button type="button" className="node-list__item" onClick={() => onSelect(n.node)}>
                  <span className="node-list__title ellipsis">{n.title}</span>
                  <span className="node-list__meta mono ellipsis">{n.node}</span>
                </button>
              </li>
            ))}
          </ul>
          {nodes.length >= 30 ? <p className="trees__note">Showing the first 30.</p> : null}
        </section>
      ) : null}
      {changes.linesKnown ? null : (
        <p className="trees__note">
          The older lines of some documents are missing, so their sections and cards are not listed.
        </p>
      )}
    </>
  );
}
