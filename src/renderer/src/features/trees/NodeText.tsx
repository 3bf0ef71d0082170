import type { TextSegment } from './use-node-read.ts';

type Line = { n: number; text: string };

/** Lines of the segments, numbered from each one's first line; agents' "n<TAB>" prefixes are dropped. */
function linesOf(segments: readonly TextSegment[]): Line[] {
  const out: Line[] = [];
  for (const s of segments) {
    if (s.text === '') continue;
    s.text.split('\n').forEach((text, i) => {
      out.push({ n: s.start + i, text: s.numbered ? text.replace(/^\d+\t/, '') : text });
    });
  }
  return out;
}

/**
 * A node's text as text, never HTML: one list item a line, with the line number in a gutter starting
 * at the citation's first line (the numbers a Git viewer shows for the same file).
 */
export function NodeText({ title, segments }: { title: string; segments: readonly TextSegment[] }) {
  const lines = linesOf(segments);
  if (lines.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls sideways on its own and must be keyboard-scrollable
    <section className="node-text" aria-label={`Text of ${title}`} tabIndex={0}>
      <ol className="node-text__lines" start={lines[0]?.n}>
        {lines.map((line) => (
          <li key={line.n} value={line.n} className="node-text__line">
            <span className="node-text__no" aria-hidden="true">
              {line.n}
            </span>
            <span className="node-text__code">{line.text || '\u200b'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
