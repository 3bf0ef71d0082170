import { Search } from 'lucide-react';
import { type KeyboardEvent, useState } from 'react';
import './graph.css';

export type NodeMatch = { id: string; label: string; detail: string };

export type NodeSearchProps = {
  /** Labels of the best matches for the search text, to pick from. */
  matches: (query: string) => NodeMatch[];
  onPick: (id: string) => void;
};

/**
 * "Find a node…": a combobox over the graph's own nodes. The arrows move through the matches, Enter
 * focuses the active one, Esc clears the box (and only the box: the dossier stays open).
 */
export function NodeSearch({ matches, onPick }: NodeSearchProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const found = query.trim() ? matches(query) : [];

  const pick = (id: string) => {
    onPick(id);
    setQuery('');
    setActive(0);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, found.length - 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
    else if (e.key === 'Enter' && found[active]) pick(found[active].id);
    else if (e.key === 'Escape' && query) {
      e.stopPropagation();
      setQuery('');
    } else return;
    e.preventDefault();
  };

  return (
    <div className="graph-search">
      <Search size={14} aria-hidden="true" className="graph-search__icon" />
      <input
        type="search"
        role="combobox"
        aria-label="Find a node"
        aria-expanded={found.length > 0}
        aria-controls="graph-search-results"
        aria-activedescendant={found[active] ? `graph-hit-${active}` : undefined}
        placeholder="Find a node…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      {found.length > 0 ? (
        <div
          className="graph-search__results"
          id="graph-search-results"
          role="listbox"
          aria-label="Matching nodes"
        >
          {found.map((m, i) => (
            <div
              key={m.id}
              id={`graph-hit-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? 'graph-search__hit is-active' : 'graph-search__hit'}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(m.id)}
              onKeyDown={() => {}}
            >
              <span className="ellipsis">{m.label}</span>
              <span className="muted">{m.detail}</span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
