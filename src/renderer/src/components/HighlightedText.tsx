import { memo } from 'react';
import { type Range, splitHighlights } from '../lib/highlight.ts';

export type HighlightedTextProps = {
  text: string;
  ranges: readonly Range[];
  /** Added to each <mark> (e.g. to tell the cited range from query words). */
  markClassName?: string;
  /** Set on the first <mark>, so it can be scrolled into view. */
  firstMarkRef?: (el: HTMLElement | null) => void;
};

/** Text with ranges wrapped in <mark>. Only text nodes: file text is never parsed as HTML. */
export const HighlightedText = memo(function HighlightedText({
  text,
  ranges,
  markClassName,
  firstMarkRef,
}: HighlightedTextProps) {
  const segments = splitHighlights(text, ranges);
  let firstSeen = false;
  return (
    <>
      {segments.map((s) => {
        if (!s.mark) return s.text;
        const isFirst = !firstSeen;
        firstSeen = true;
        return (
          <mark key={s.start} className={markClassName} ref={isFirst ? firstMarkRef : undefined}>
            {s.text}
          </mark>
        );
      })}
    </>
  );
});
