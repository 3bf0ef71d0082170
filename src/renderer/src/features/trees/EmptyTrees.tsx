import { FolderTree, GitBranch } from 'lucide-react';

/** No repository connected yet: what a tree is, and the one way to get one. */
export function EmptyTrees({ onConnect }: { onConnect: () => void }) {
  return (
    <div className="empty">
      <div className="empty__art" aria-hidden="true">
        <FolderTree size={28} />
      </div>
      <h2 className="empty__title">No repository connected</h2>
      <p className="empty__text">
        A tree is a Markdown repository indexed as its folders, documents and headings, each with a short
        summary, that people and agents read top-down and cite by path, lines and commit.
      </p>
      <div className="empty__actions">
        <button type="button" className="button button--primary" onClick={onConnect}>
          <GitBranch size={15} aria-hidden="true" />
          Connect a repository…
        </button>
      </div>
    </div>
  );
}
