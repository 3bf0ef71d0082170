import * as Menu from '@radix-ui/react-dropdown-menu';
import { Check, ChevronDown } from 'lucide-react';

export type FilterMenuProps<T extends string> = {
  label: string;
  options: readonly T[];
  selected: readonly T[];
  onChange: (next: T[]) => void;
  describe?: (option: T) => string;
};

/**
 * A facet filter (kind, state, scope) as a Radix dropdown of checkboxes. Non-modal: a modal Radix menu
 * locks scrolling with an injected <style>, which our CSP refuses.
 */
export function FilterMenu<T extends string>({
  label,
  options,
  selected,
  onChange,
  describe,
}: FilterMenuProps<T>) {
  const toggle = (option: T) =>
    onChange(selected.includes(option) ? selected.filter((s) => s !== option) : [...selected, option]);
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={selected.length ? 'button button--filter is-active' : 'button button--filter'}>
        {label}
        {selected.length ? <span className="count-badge">{selected.length}</span> : null}
        <ChevronDown size={14} aria-hidden="true" />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="start" sideOffset={4}>
          {options.length === 0 ? <div className="menu__empty">Nothing to filter yet</div> : null}
          {options.map((option) => (
            <Menu.CheckboxItem
              key={option}
              className="menu__item"
              checked={selected.includes(option)}
              onCheckedChange={() => toggle(option)}
              onSelect={(e) => e.preventDefault()}
            >
              <Menu.ItemIndicator className="menu__check">
                <Check size={14} aria-hidden="true" />
              </Menu.ItemIndicator>
              {describe ? describe(option) : option}
            </Menu.CheckboxItem>
          ))}
          {selected.length ? (
            <>
              <Menu.Separator className="menu__separator" />
              <Menu.Item className="menu__item" onSelect={() => onChange([])}>
                Clear {label.toLowerCase()} filter
              </Menu.Item>
            </>
          ) : null}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
