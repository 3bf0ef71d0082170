/**
 * Ctrl/Cmd+K: one box that finds commands, nodes of connected repositories (trees.lookup), files by
 * name (files.list) and passages by text (search.query). A combobox over a listbox inside a Radix dialog.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { Search } from 'lucide-react';
import { useReturnFocus } from '../../components/use-return-focus.ts';
import { PaletteOption } from './PaletteOption.tsx';
import type { PaletteItem } from './palette-items.ts';
import { usePalette } from './use-palette.ts';
import '../../components/dialog.css';
import './palette.css';

export type CommandPaletteProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: PaletteItem[];
  onOpenItem: (id: string, from: 'search' | 'citation') => void;
  onOpenNode: (tree: string, node: string) => void;
};

export function CommandPalette(props: CommandPaletteProps) {
  const { open, onOpenChange } = props;
  const { query, type, q, items, active, setActive, searching, onKeyDown } = usePalette(props);
  const focus = useReturnFocus();

  let lastGroup: string | null = null;
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <div className="dialog-backdrop dialog-backdrop--light" aria-hidden="true" />
        <RadixDialog.Content
          className="palette"
          aria-label="Search and commands"
          onOpenAutoFocus={focus.remember}
          onCloseAutoFocus={focus.restore}
        >
          <RadixDialog.Title className="visually-hidden">Search and commands</RadixDialog.Title>
          <RadixDialog.Description className="visually-hidden">
            Find files by name, passages by text, a repository's node by reference id or path, or run a
            command.
          </RadixDialog.Description>
          <div className="palette__input-row">
            <Search size={16} aria-hidden="true" />
            <input
              className="palette__input"
              role="combobox"
              aria-expanded="true"
              aria-controls="palette-list"
              aria-activedescendant={items[active] ? `palette-option-${active}` : undefined}
              aria-autocomplete="list"
              aria-label="Search files, passages and commands"
              placeholder="Search files, passages and commands…"
              value={query}
              onChange={(e) => type(e.target.value)}
              onKeyDown={onKeyDown}
            />
            {searching ? <span className="palette__busy" aria-hidden="true" /> : null}
          </div>
          <div className="palette__list" id="palette-list" role="listbox" aria-label="Results">
            {items.map((item, i) => {
              const header = item.group !== lastGroup ? item.group : null;
              lastGroup = item.group;
              return (
                <div key={item.id} role="presentation">
                  {header ? (
                    <div className="palette__group" role="presentation">
                      {header}
                    </div>
                  ) : null}
                  <PaletteOption
                    item={item}
                    index={i}
                    active={i === active}
                    query={q}
                    onHover={() => setActive(i)}
                  />
                </div>
              );
            })}
            {items.length === 0 ? (
              <div className="palette__empty">
                {searching ? 'Searching…' : `Nothing found for “${query}”`}
              </div>
            ) : null}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
