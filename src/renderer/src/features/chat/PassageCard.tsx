import { ChevronDown, ChevronUp, Quote } from 'lucide-react';
import { useState } from 'react';
import type { Passage } from '#shared/api/types.ts';
import { HighlightedText } from '../../components/HighlightedText.tsx';
import { type OpenCitation, openCited, sourceOf, whereOf } from './cited.ts';
import { FactTag } from './FactTag.tsx';
import './turns.css';

export type PassageCardProps = { passage: Passage; n: number; onOpen: OpenCitation };

/** Long passages start folded to a few lines; the whole text is one click away. */
function isLong(text: string): boolean {
  return text.length > 480 || text.split('\n').length > 7;
}

/** One cited passage: where it comes from (a button to the dossier) and its text with the query words marked. */
export function PassageCard({ passage, n, onOpen }: PassageCardProps) {
  const [open, setOpen] = useState(false);
  const where = whereOf(passage);
  const long = isLong(passage.text);
  return (
    <figure className="passage">
      <figcaption className="passage__source">
        <button
          type="button"
          className="citation-link"
          onClick={() => openCited(passage, passage.itemId, onOpen)}
          aria-label={`Open citation ${n}: ${where}`}
        >
          <span className="citation-link__n">{n}</span>
          {passage.fact ? <FactTag entity={passage.fact.entity} /> : null}
          <span className="ellipsis">{passage.fact ? `from ${sourceOf(passage)}` : where}</span>
        </button>
        {long ? (
          <button
            type="button"
            className="passage__toggle"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
          >
            {open ? <ChevronUp size={13} aria-hidden="true" /> : <ChevronDown size={13} aria-hidden="true" />}
            {open ? 'Show less' : 'Show all'}
          </button>
        ) : null}
      </figcaption>
      <blockquote className={long && !open ? 'passage__text is-folded' : 'passage__text'}>
        <Quote size={12} aria-hidden="true" className="passage__quote" />
        <HighlightedText text={passage.text} ranges={passage.highlights} markClassName="query-word" />
      </blockquote>
    </figure>
  );
}
