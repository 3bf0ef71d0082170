/**
 * Ctrl/Cmd+K: one box that finds commands, files by name (files.list) and passages by text
 * (search.query). A combobox over a listbox inside a Radix dialog.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import { ArrowRight, CornerDownLeft, FileText, Quote, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useState } from 'react';
import type { FileRow } from '#shared/api/types.ts';
import type { SearchHit } from '#shared/types.ts';
import { HighlightedText } from '../../components/HighlightedText.tsx';
import { call } from '../../lib/api.ts';
import { describeCitation } from '../../lib/format.ts';
import { findWordRanges } from '../../lib/highlight.ts';
import { excerpt, filterCommands, type PaletteItem } from './palette-items.ts';

export type CommandPaletteProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: PaletteItem[];
  onOpenItem: (id: string, from: 'search' | 'citation') => void;
};

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function CommandPalette({ open, onOpenChange, commands, onOpenItem }: CommandPaletteProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [files, setFiles] = useState<FileRow[]>([]);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [searching, setSearching] = useState(false);
  const q = useDebounced(query.trim(), 180);

  useEffect(() => {
    if (!open) {
      setQuery('');
      setFiles([]);
      setHits([]);
    }
  }, [open]);

  useEffect(() => {
    let live = true;
    if (!open || q.length < 1) {
      setFiles([]);
      setHits([]);
      return;
    }
    setSearching(true);
    const filesCall = call('files.list', { q, limit: 6, sort: 'name', dir: 'asc', offset: 0 })
      .then((r) => live && setFiles(r.rows))
      .catch(() => live && setFiles([]));
    const hitsCall =
      q.length >= 3
        ? call('search.query', { query: q, k: 6 })
            .then((r) => live && setHits(r.hits))
            .catch(() => live && setHits([]))
        : Promise.resolve(live && setHits([]));
    void Promise.all([filesCall, hitsCall]).finally(() => live && setSearching(false));
    return () => {
      live = false;
    };
  }, [q, open]);

  const items = useMemo<PaletteItem[]>(() => {
    const close = (fn: () => void) => () => {
      onOpenChange(false);
      fn();
    };
    const fileItems: PaletteItem[] = files.map((f) => ({
      id: `file:${f.id}`,
      group: 'Files',
      label: f.label,
      hint: `${f.kind} · ${f.state}`,
      run: close(() => onOpenItem(f.id, 'search')),
    }));
    const hitItems: PaletteItem[] = hits.map((h) => ({
      id: `hit:${h.id}`,
      group: 'Passages',
      label: describeCitation(h.citation) ?? h.label,
      hint: excerpt(h.body, q),
      run: close(() => onOpenItem(h.citation?.itemId ?? h.id, 'citation')),
    }));
    const cmdItems = filterCommands(commands, query).map((c) => ({ ...c, run: close(c.run) }));
    return [...cmdItems.slice(0, query ? 5 : 12), ...fileItems, ...hitItems];
  }, [files, hits, commands, query, q, onOpenChange, onOpenItem]);

  useEffect(() => {
    setActive((a) => Math.min(a, Math.max(0, items.length - 1)));
  }, [items.length]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => (items.length ? (a + 1) % items.length : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (items.length ? (a - 1 + items.length) % items.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      items[active]?.run();
    }
  };

  useEffect(() => {
    document.getElementById(`palette-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  let lastGroup: string | null = null;
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <div className="dialog-backdrop dialog-backdrop--light" aria-hidden="true" />
        <RadixDialog.Content className="palette" aria-label="Search and commands">
          <RadixDialog.Title className="visually-hidden">Search and commands</RadixDialog.Title>
          <RadixDialog.Description className="visually-hidden">
            Find files by name, passages by text, or run a command.
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
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
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
                  <div
                    id={`palette-option-${i}`}
                    role="option"
                    aria-selected={i === active}
                    className={i === active ? 'palette__option is-active' : 'palette__option'}
                    onMouseMove={() => setActive(i)}
                    onClick={() => item.run()}
                    onKeyDown={() => {}}
                    tabIndex={-1}
                  >
                    <span className="palette__option-icon" aria-hidden="true">
                      {item.group === 'Files' ? (
                        <FileText size={15} />
                      ) : item.group === 'Passages' ? (
                        <Quote size={15} />
                      ) : (
                        <ArrowRight size={15} />
                      )}
                    </span>
                    <span className="palette__option-text">
                      <span className="palette__option-label ellipsis">{item.label}</span>
                      {item.hint ? (
                        <span className="palette__option-hint">
                          {item.group === 'Passages' ? (
                            <HighlightedText
                              text={item.hint}
                              ranges={findWordRanges(item.hint, q)}
                              markClassName="query-word"
                            />
                          ) : (
                            item.hint
                          )}
                        </span>
                      ) : null}
                    </span>
                    {i === active ? (
                      <CornerDownLeft size={14} aria-hidden="true" className="palette__enter" />
                    ) : null}
                  </div>
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
