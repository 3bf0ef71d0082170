import { Search } from 'lucide-react';
import './topbar.css';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The one search box: opens the command palette (also Ctrl/Cmd+K). */
export function TopBar({ onSearch }: { onSearch: () => void }) {
  return (
    <header className="topbar">
      <button
        type="button"
        className="topbar__search"
        onClick={onSearch}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <Search size={15} aria-hidden="true" />
        <span className="topbar__placeholder">Search files, passages and commands…</span>
        <kbd className="topbar__kbd">{isMac ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
    </header>
  );
}
