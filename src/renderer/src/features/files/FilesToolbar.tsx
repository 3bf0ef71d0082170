import * as Menu from '@radix-ui/react-dropdown-menu';
import {
  ChevronDown,
  FolderInput,
  FolderPlus,
  LayoutGrid,
  List,
  Play,
  Plus,
  Search,
  Trash2,
  Upload,
  X,
} from 'lucide-react';
import type { FileState } from '#shared/api/types.ts';
import { Switch } from '../../components/Switch.tsx';
import { FilterMenu } from './FilterMenu.tsx';
import { FILE_STATE_LIST, type FileQuery, hasFilters } from './file-query.ts';
import './files.css';

const STATE_LABEL: Record<FileState, string> = {
  added: 'Added (not indexed)',
  indexing: 'Indexing',
  indexed: 'Indexed',
  failed: 'Failed',
};

export type FilesToolbarProps = {
  query: FileQuery;
  onQuery: (next: FileQuery) => void;
  facets: { kinds: string[]; scopes: string[] };
  selectedCount: number;
  onIndexSelected: () => void;
  /** Asks to remove the selected files (also Delete in the grid). */
  onRemoveSelected: () => void;
  onIndexAll: () => void;
  indexOnAdd: boolean | null;
  onIndexOnAdd: (on: boolean) => void;
  onPickFiles: () => void;
  onPickFolder: () => void;
  onWatch: () => void;
  busy: boolean;
  view: FilesView;
  onView: (view: FilesView) => void;
};

/** The files as a table (the default) or as tiles. */
export type FilesView = 'table' | 'tiles';

const VIEWS = [
  { view: 'table', label: 'Table view', Icon: List },
  { view: 'tiles', label: 'Tiles view', Icon: LayoutGrid },
] as const;

export function FilesToolbar(p: FilesToolbarProps) {
  const { query, onQuery } = p;
  return (
    <div className="toolbar" role="toolbar" aria-label="File actions">
      <label className="search-field">
        <Search size={14} aria-hidden="true" />
        <input
          type="search"
          placeholder="Find by name"
          aria-label="Find files by name"
          value={query.q}
          onChange={(e) => onQuery({ ...query, q: e.target.value })}
        />
      </label>
      <FilterMenu
        label="Kind"
        options={p.facets.kinds}
        selected={query.kinds}
        onChange={(kinds) => onQuery({ ...query, kinds })}
      />
      <FilterMenu
        label="State"
        options={FILE_STATE_LIST}
        selected={query.states}
        onChange={(states) => onQuery({ ...query, states })}
        describe={(s) => STATE_LABEL[s]}
      />
      <FilterMenu
        label="Scope"
        options={p.facets.scopes}
        selected={query.scopes}
        onChange={(scopes) => onQuery({ ...query, scopes })}
      />
      {hasFilters(query) ? (
        <button
          type="button"
          className="button button--ghost"
          onClick={() => onQuery({ ...query, q: '', kinds: [], states: [], scopes: [] })}
        >
          <X size={14} aria-hidden="true" />
          Clear
        </button>
      ) : null}
      <div className="toolbar__spacer" />
      <div className="segmented">
        {VIEWS.map(({ view, label, Icon }) => (
          <button
            key={view}
            type="button"
            className="segmented__button"
            aria-pressed={p.view === view}
            aria-label={label}
            title={label}
            onClick={() => p.onView(view)}
          >
            <Icon size={15} aria-hidden="true" />
          </button>
        ))}
      </div>
      <div className="toolbar__switch">
        <Switch
          id="index-on-add"
          label="Index on add"
          checked={p.indexOnAdd ?? false}
          disabled={p.indexOnAdd === null}
          onChange={p.onIndexOnAdd}
        />
        <label htmlFor="index-on-add" className="toolbar__switch-label">
          Index on add
        </label>
      </div>
      <Menu.Root modal={false}>
        <Menu.Trigger className="button">
          <Plus size={15} aria-hidden="true" />
          Add
          <ChevronDown size={14} aria-hidden="true" />
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content className="menu" align="end" sideOffset={4}>
            <Menu.Item className="menu__item" onSelect={p.onPickFiles}>
              <Upload size={14} aria-hidden="true" /> Add files…
            </Menu.Item>
            <Menu.Item className="menu__item" onSelect={p.onPickFolder}>
              <FolderInput size={14} aria-hidden="true" /> Add a folder…
            </Menu.Item>
            <Menu.Separator className="menu__separator" />
            <Menu.Item className="menu__item" onSelect={p.onWatch}>
              <FolderPlus size={14} aria-hidden="true" /> Watch a folder…
            </Menu.Item>
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      <button
        type="button"
        className="button"
        onClick={p.onIndexSelected}
        disabled={p.selectedCount === 0 || p.busy}
        aria-keyshortcuts="I"
        title="Index the selected files (I)"
      >
        Index selected{p.selectedCount > 0 ? ` (${p.selectedCount.toLocaleString()})` : ''}
      </button>
      <button
        type="button"
        className="button"
        onClick={p.onRemoveSelected}
        disabled={p.selectedCount === 0 || p.busy}
        aria-keyshortcuts="Delete"
        title="Remove the selected files (Delete)"
      >
        <Trash2 size={14} aria-hidden="true" />
        Remove…
      </button>
      <button type="button" className="button button--primary" onClick={p.onIndexAll} disabled={p.busy}>
        <Play size={14} aria-hidden="true" />
        Index all
      </button>
    </div>
  );
}
