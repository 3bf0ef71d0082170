import { useEffect, useRef } from 'react';
import { HighlightedText } from '../../components/HighlightedText.tsx';
import './dossier.css';

export type DossierTextProps = {
  label: string;
  text: string;
  highlight: { start: number; end: number } | null;
  /** Changes each time the dossier is (re)opened, so the range is scrolled to again. */
  scrollKey: string;
};

/** The item's text as text (never HTML), the cited range in a <mark>, scrolled into view. */
export function DossierText({ label, text, highlight, scrollKey }: DossierTextProps) {
  const mark = useRef<HTMLElement | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void scrollKey;
    if (mark.current) mark.current.scrollIntoView({ block: 'center' });
    else box.current?.scrollTo({ top: 0 });
  }, [scrollKey]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls on its own and must be keyboard-scrollable
    <div ref={box} className="dossier__text" role="document" aria-label={`Text of ${label}`} tabIndex={0}>
      <HighlightedText
        text={text}
        ranges={highlight ? [highlight] : []}
        markClassName="cited"
        firstMarkRef={(el) => {
          mark.current = el;
        }}
      />
    </div>
  );
}
