import { ArrowRight, CornerDownLeft, FileText, FolderTree, Quote } from 'lucide-react';
import { HighlightedText } from '../../components/HighlightedText.tsx';
import { findWordRanges } from '../../lib/highlight.ts';
import type { PaletteItem } from './palette-items.ts';
import './palette.css';

export type PaletteOptionProps = {
  item: PaletteItem;
  index: number;
  active: boolean;
  /** The words typed, marked in a passage's excerpt. */
  query: string;
  onHover: () => void;
};

/** One option: its group's icon, the label, a hint (a passage's excerpt with the query words marked). */
export function PaletteOption({ item, index, active, query, onHover }: PaletteOptionProps) {
  return (
    <div
      id={`palette-option-${index}`}
      role="option"
      aria-selected={active}
      className={active ? 'palette__option is-active' : 'palette__option'}
      onMouseMove={onHover}
      onClick={() => item.run()}
      onKeyDown={() => {}}
      tabIndex={-1}
    >
      <span className="palette__option-icon" aria-hidden="true">
        {item.group === 'Files' ? (
          <FileText size={15} />
        ) : item.group === 'Passages' ? (
          <Quote size={15} />
        ) : item.group === 'Tree nodes' ? (
          <FolderTree size={15} />
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
                ranges={findWordRanges(item.hint, query)}
                markClassName="query-word"
              />
            ) : (
              item.hint
            )}
          </span>
        ) : null}
      </span>
      {active ? <CornerDownLeft size={14} aria-hidden="true" className="palette__enter" /> : null}
    </div>
  );
}
